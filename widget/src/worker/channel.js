/**
 * The worker's end of its private channel to the page (widget/src/python.js). The page's first
 * message hands over a MessagePort and, when the page is cross-origin isolated, the interrupt
 * buffer. Requests and answers then go over that port, held only in this module's scope: learner
 * code that reaches JavaScript sees neither a request's nonce nor a way to answer for it.
 */
const early = []; // what the worker said before the page's port arrived
let post = null;
let interrupt = null;

/** A failure to start whose message already says what to check. */
class HostingError extends Error {}

/** Sends `message` to the page (queued until the port arrives). */
export function send(message) {
  if (post) post(message);
  else early.push(message);
}

/** The interrupt buffer shared with the page (a Uint8Array), or null without isolation. */
export function interruptBuffer() {
  return interrupt;
}

/** Calls `onGrade({nonce, exercise, bodies})` for every grade request from the page. */
export function serve(onGrade) {
  self.addEventListener("message", function connect({ data, ports }) {
    if (data?.type !== "connect" || !ports?.[0] || post) return;
    self.removeEventListener("message", connect);
    const [port] = ports;
    post = port.postMessage.bind(port); // bound now: later changes to MessagePort do not reach it
    interrupt = data.interrupt ? new Uint8Array(data.interrupt) : null;
    port.onmessage = ({ data: request }) => {
      if (request?.type === "grade") onGrade(request);
    };
    for (const message of early.splice(0)) post(message);
  });
}

/**
 * What went wrong while Python was starting, said so that whoever hosts the course knows what to
 * check. `files` maps a short name ("wasm", "stdlib", "course") to the URL of that file.
 */
export function bootFailure(error, files) {
  // a Python traceback's last line says what happened
  const text = `${error?.message || error}`.trim().split("\n").at(-1);
  const path = (name) => new URL(files[name]).pathname;
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

/**
 * A grader-shaped result for a run that broke Python itself rather than failing inside it, so
 * the page can show it; the page then replaces the worker.
 */
export function crashed(exercise, error) {
  const message = `${error?.message || error}`;
  const cause = /call stack/i.test(message)
    ? "your code went too deep: it nested calls (or data that Python walks through, such as a list inside a list thousands of levels deep) beyond what the browser allows"
    : /memory|allocat/i.test(message)
      ? "your code used more memory than the browser allows"
      : `Python failed (${message})`;
  const summary = `Python crashed: ${cause}. It is being restarted; your code is kept.`;
  return {
    exercise,
    verdict: "error",
    summary,
    checks: [],
    error: { type: error?.name || "Error", message, summary, text: summary },
    stubs: [],
    stdout: "",
    stdout_truncated: false,
  };
}
