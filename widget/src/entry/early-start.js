/**
 * Inlined first in the <head> of a page with Python (course/assets.py): starts Python's
 * workers, the first runner and (where the page grades: `data-judge`) the judge, while the page
 * is still parsed, so that Pyodide loads while the style sheets arrive and the page renders.
 * The page's Python (python.js) adopts them, with the errors they may have had meanwhile.
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
  const { worker, judge } = document.currentScript.dataset;
  const url = new URL(worker, document.baseURI);
  // the judge fetches and compiles the WebAssembly, for both
  const link = judge === undefined ? null : wasmLink();
  globalThis.coursePython = {
    judge: link && startPythonWorker(url, "judge", { id: "early", share: link.compiler }),
    runner: startPythonWorker(url, "runner", { id: "early", wasm: link?.receiver ?? null }),
  };
}
