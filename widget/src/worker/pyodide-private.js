/**
 * Every use of Pyodide's private API, in one place. Checked against Pyodide 314.0.7 (the
 * pinned npm package); a Pyodide upgrade must rerun site_tests/test_python_snapshot.py, and
 * any failure here only means a start from scratch.
 *
 * - `_makeSnapshot` / `makeMemorySnapshot()` / `_loadSnapshot`: memory snapshots; a snapshot's
 *   header (magic, size, build id, JavaScript state) as Pyodide lays it out, and its module's
 *   `API.restoreSnapshot`, made to write the memory itself.
 * - the WebAssembly module, compiled by the worker as it downloads, handed to `loadPyodide`
 *   by swapping `WebAssembly.instantiateStreaming` for the duration of the call; and
 *   Emscripten's adaptor modules (`convertJsFunctionToWasm`), each compiled once, by swapping
 *   `WebAssembly.Module` likewise.
 */
import { unpackedLength, unpackInto } from "./snapshot-pack.js";

/**
 * `loadPyodide(options)` with `wasmModule` in place of the WebAssembly it would compile, and
 * each of Emscripten's tiny adaptor modules compiled once (`compilingOnce`).
 */
export async function loadWithModule(loadPyodide, wasmModule, options) {
  const { instantiateStreaming, Module } = WebAssembly;
  WebAssembly.instantiateStreaming = async (_response, imports) => ({
    module: wasmModule,
    instance: await WebAssembly.instantiate(wasmModule, imports),
  });
  WebAssembly.Module = compilingOnce(Module);
  try {
    return await loadPyodide(options);
  } finally {
    Object.assign(WebAssembly, { instantiateStreaming, Module });
  }
}

// Emscripten's adaptor for a JavaScript function of a signature is a few dozen bytes
const ADAPTOR_BYTES = 64;

/**
 * `WebAssembly.Module` that compiles each small module once. Starting Python, Emscripten puts
 * ~260 JavaScript functions into the function table, each through a module of its own that
 * depends only on the function's signature (`convertJsFunctionToWasm`), ~30 distinct: compiling
 * each anew cost a starting worker 10–40 ms. A module is immutable, so sharing one is safe.
 */
export function compilingOnce(Module) {
  const compiled = new Map();
  return new Proxy(Module, {
    construct(target, args, newTarget) {
      const [bytes] = args;
      if (!(bytes instanceof Uint8Array) || bytes.length > ADAPTOR_BYTES)
        return Reflect.construct(target, args, newTarget);
      const key = bytes.join();
      if (!compiled.has(key)) compiled.set(key, Reflect.construct(target, args));
      return compiled.get(key);
    },
  });
}

/**
 * Options that make `loadPyodide` (whose `createPyodideModule` is given) ready to snapshot
 * (`make`), and restore `restore`, a snapshot packed by snapshot-pack.js. Pyodide would take
 * the whole snapshot, 30 MB, copy it into its memory and keep it; here it gets the header, and
 * its memory gets the rest straight from the packed bytes: a third of them copied, none kept.
 * Throws, before anything starts, on an entry that is not whole.
 */
export function snapshotOptions({ make, restore }, createPyodideModule) {
  const making = make ? { _makeSnapshot: true } : {};
  if (!restore) return making;
  let packed = restore; // let go once written: Pyodide keeps its options for good
  // the header's second word is its size, JavaScript state included; the memory follows it
  const size = new DataView(unpackInto(packed, new Uint8Array(8)).buffer).getUint32(4, true);
  const memoryLength = unpackedLength(packed) - size;
  return {
    ...making,
    _loadSnapshot: unpackInto(packed, new Uint8Array(size)),
    createPyodideModule: async (settings) => {
      const module = await createPyodideModule(settings);
      const { API } = module;
      const restoreHeader = API.restoreSnapshot; // checks the header and reads the state
      API.restoreSnapshot = (header) => {
        const state = restoreHeader.call(API, header);
        // as Pyodide's own copy would throw: a memory that grew before it was saved
        if (memoryLength > module.HEAPU8.length) throw new RangeError("snapshot too large");
        unpackInto(packed, module.HEAPU8, size);
        packed = null;
        return state;
      };
      return module;
    },
  };
}

/** Python's memory as it is now: a snapshot to restore later (Uint8Array). */
export function makeSnapshot(pyodide) {
  return pyodide.makeMemorySnapshot();
}
