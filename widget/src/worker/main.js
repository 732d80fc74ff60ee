/**
 * The Python worker: loads the grader into Pyodide (load-python.js), then answers the grade
 * requests that come over the page's private channel (worker-link.js; see ARCHITECTURE.md).
 */
import { FILES, loadGrader } from "./load-python.js";
import { bootFailure, crashed, interruptBuffer, send, serve } from "./worker-link.js";

// a worker whose heap grew past this (WebAssembly memory never shrinks) is replaced after its run
const MAX_HEAP_BYTES = 256 * 2 ** 20;
const parseJson = JSON.parse.bind(JSON); // taken now: learner code that reaches JavaScript may swap JSON.parse

const python = boot();
python.catch(() => {}); // reported to the page as "failed"

serve(async ({ nonce, exercise, bodies }) => {
  // the nonce stays here: Python is given the exercise and the code, nothing else
  let result;
  let replace = true; // unless Python answers and is still in shape
  try {
    const { pyodide, gradeJson } = await python;
    if (interruptBuffer()) pyodide.setInterruptBuffer(interruptBuffer());
    result = parseJson(gradeJson(exercise, JSON.stringify(bodies)));
    replace = (pyodide._module?.HEAPU8?.byteLength ?? 0) > MAX_HEAP_BYTES;
  } catch (error) {
    result = crashed(exercise, error);
  }
  send({ type: "result", nonce, result, replace });
});

async function boot() {
  const started = performance.now();
  try {
    return await loadGrader(
      (loaded, total) => send({ type: "progress", loaded, total }),
      (restored) => send({ type: "ready", ms: Math.round(performance.now() - started), restored }),
    );
  } catch (error) {
    send({ type: "failed", message: bootFailure(error, FILES) });
    throw error;
  }
}
