/**
 * What can go wrong with how the site is hosted, found as early as possible and said so that
 * whoever hosts the course knows what to check.
 */

/** A failure to start whose message already says what to check. */
export class HostingError extends Error {}

/**
 * What went wrong while Python was starting, said so that whoever hosts the course knows what to
 * check. `files` maps a short name ("wasm", "stdlib", "course") to the URL of that file.
 */
export function bootFailure(error, files) {
  // a Python traceback's last line says what happened
  const text = `${error?.message || error}`.trim().split("\n").at(-1);
  const path = (name) =>
    [files[name]]
      .flat()
      .map((url) => new URL(url).pathname)
      .join(" and ");
  const copied = "whoever hosts this course should check that the built site was copied whole, byte for byte";
  if (error instanceof HostingError || /could not be downloaded/.test(text)) return text;
  if (error instanceof WebAssembly.CompileError)
    return `${path("wasm")} is not valid WebAssembly (${text}); ${copied}, and that it is served as application/wasm.`;
  if (error instanceof SyntaxError || /module script|MIME type/i.test(text))
    return `Pyodide's JavaScript could not be loaded (${text}); ${copied}, and that .mjs files are served as text/javascript.`;
  if (/zip|archive/i.test(text))
    return `a Python archive is damaged (${text}); ${copied}: check ${path("stdlib")} and ${path("course")}.`;
  return `${text}; ${copied}.`;
}

// the smallest WebAssembly module: its magic number and version
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * Pyodide's WebAssembly (`response`, its download), compiled as it arrives, from the browser's
 * code cache on later visits. Rejects at once, with what to check, when the host's policy forbids
 * WebAssembly or the bytes are not WebAssembly (Pyodide itself would only log a warning and wait
 * forever). A host that serves it with another type than application/wasm gets the slower path.
 */
export async function compileWasm(response) {
  try {
    new WebAssembly.Module(EMPTY_MODULE);
  } catch (error) {
    throw new HostingError(
      `this site's Content-Security-Policy forbids WebAssembly (${error.message}); whoever hosts this course should add 'wasm-unsafe-eval' to its script-src.`,
    );
  }
  const streamable = response.headers.get("content-type")?.split(";")[0].trim() === "application/wasm";
  return streamable ? WebAssembly.compileStreaming(response) : WebAssembly.compile(await response.arrayBuffer());
}
