/**
 * Inlined first in the <head> of a page with an exercise (course/assets.py): starts Python's
 * workers while the page is still parsed, so that Pyodide loads while the style sheets arrive
 * and the page renders. The page's Python (python.js) adopts them, with the errors they may
 * have had meanwhile. The judge always starts; a runner starts at once when a snapshot was
 * saved before (else the judge's first start makes one, and the runner restores it).
 */
import { startPythonWorker } from "./python-worker.js";
import { readDigest } from "./snapshot-digest.js";

performance.mark("python-start");
const url = new URL(document.currentScript.dataset.worker, document.baseURI);
const judge = startPythonWorker(url, "judge");
const runner = readDigest(new URL("../../", url)) ? startPythonWorker(url, "runner") : null;
globalThis.coursePython = { judge, runner };
