/**
 * Every use of Pyodide's private API, in one place. Checked against Pyodide 314.0.7 (the
 * pinned npm package); a Pyodide upgrade must rerun site_tests/test_python_snapshot.py, and
 * any failure here only means a start from scratch.
 *
 * - `_makeSnapshot` / `makeMemorySnapshot()` / `_loadSnapshot`: memory snapshots.
 * - the WebAssembly module, compiled by the worker as it downloads, handed to `loadPyodide`
 *   by swapping `WebAssembly.instantiateStreaming` for the duration of the call.
 */

/** `loadPyodide(options)` with `wasmModule` in place of the WebAssembly it would compile. */
export async function loadWithModule(loadPyodide, wasmModule, options) {
  const { instantiateStreaming } = WebAssembly;
  WebAssembly.instantiateStreaming = async (_response, imports) => ({
    module: wasmModule,
    instance: await WebAssembly.instantiate(wasmModule, imports),
  });
  try {
    return await loadPyodide(options);
  } finally {
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}

/** Options that make `loadPyodide` ready to snapshot, or restore `snapshot` (a Promise). */
export function snapshotOptions({ make, restore }) {
  if (restore) return { _loadSnapshot: restore };
  return make ? { _makeSnapshot: true } : {};
}

/** Python's memory as it is now: a snapshot to restore later (Uint8Array). */
export function makeSnapshot(pyodide) {
  return pyodide.makeMemorySnapshot();
}
