/**
 * Inlined first in the <head> of a page with an exercise (course/assets.py): starts Python's
 * workers, the judge and the first runner, while the page is still parsed, so that Pyodide
 * loads while the style sheets arrive and the page renders. The page's Python (python.js)
 * adopts them, with the errors they may have had meanwhile.
 *
 * Opened from disk, no worker can start and the page's module never loads: being inlined, this
 * is the one script every browser runs there, so it says in each widget's place that the site
 * must be served (page/from-disk.js).
 */
import { startPythonWorker, wasmLink, watchPolicy } from "../python/python-worker.js";
import { fromDisk, sayFromDisk } from "../page/from-disk.js";

if (fromDisk(location)) {
  document.addEventListener("DOMContentLoaded", () => sayFromDisk(document));
} else {
  performance.mark("python-start");
  watchPolicy();
  const url = new URL(document.currentScript.dataset.worker, document.baseURI);
  const link = wasmLink(); // the judge fetches and compiles the WebAssembly, for both
  globalThis.coursePython = {
    judge: startPythonWorker(url, "judge", { id: "early", share: link.compiler }),
    runner: startPythonWorker(url, "runner", { id: "early", wasm: link.receiver }),
  };
}
