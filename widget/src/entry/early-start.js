/**
 * Inlined first in the <head> of a page with an exercise (course/assets.py): starts Python's
 * workers, the judge and the first runner, while the page is still parsed, so that Pyodide
 * loads while the style sheets arrive and the page renders. The page's Python (python.js)
 * adopts them, with the errors they may have had meanwhile.
 */
import { startPythonWorker, wasmLink, watchPolicy } from "../python/python-worker.js";

performance.mark("python-start");
watchPolicy();
const url = new URL(document.currentScript.dataset.worker, document.baseURI);
const link = wasmLink(); // the judge fetches and compiles the WebAssembly, for both
globalThis.coursePython = {
  judge: startPythonWorker(url, "judge", { id: "early", share: link.judge }),
  runner: startPythonWorker(url, "runner", { id: "early", wasm: link.runner }),
};
