/**
 * Loads the grader into Pyodide, in the worker, as fast as the browser allows: every download
 * starts at once, the WebAssembly compiles as it arrives, Pyodide's two modules are imported
 * meanwhile, the standard library is the build's trimmed and compiled one
 * (tools/build_stdlib.mjs), and the lock file's info comes with the bundle instead of a request.
 * With memory snapshots on, a Python saved by an earlier visit is restored instead (snapshot.js). What the build chose is the constant
 * PYTHON_ASSETS, set by widget/build.mjs: {pyodide, stdlib, course, lock, snapshot}.
 */
/* global PYTHON_ASSETS */
import { forgetSnapshot, saveSnapshot, savedSnapshot, snapshotKey } from "./snapshot.js";
import { compileWasm } from "./worker-link.js";

const ASSETS_URL = new URL("../", import.meta.url);
const PYODIDE_URL = new URL(PYTHON_ASSETS.pyodide, ASSETS_URL);
const STDLIB_URL = new URL(PYTHON_ASSETS.stdlib, ASSETS_URL);
const FULL_STDLIB_URL = new URL("python_stdlib.zip", PYODIDE_URL);
const COURSE_URL = new URL(PYTHON_ASSETS.course, ASSETS_URL);
const COURSE_DIR = "/home/pyodide/course";
const WASM_URL = new URL("pyodide.asm.wasm", PYODIDE_URL);
// the files worth a progress bar, fetched up front so their sizes are known from the start
const DOWNLOADS = [WASM_URL, STDLIB_URL, COURSE_URL].map((url) => url.href);
const SNAPSHOT_KEY = snapshotKey({ pyodide: PYODIDE_URL.href, stdlib: STDLIB_URL.href, course: COURSE_URL.href });
/** The files a failure to start may come from, for the message that names them. */
export const FILES = { wasm: WASM_URL.href, stdlib: STDLIB_URL.href, course: COURSE_URL.href };

/**
 * Resolves with `{pyodide, gradeJson}`: `gradeJson(exercise, bodiesJson)` is the grader's
 * `grade_json`, warmed up. `onProgress(loaded, total)` counts the downloaded bytes;
 * `onStarted(restored)` is called as soon as the grader is imported, `restored` saying whether
 * Python came from a snapshot (a fresh start then still warms up and saves one).
 */
export async function loadGrader(onProgress, onStarted) {
  const saved = PYTHON_ASSETS.snapshot ? savedSnapshot(SNAPSHOT_KEY) : null;
  // imported now, while the files download; pyodide.mjs imports the second itself, and gets
  // this same module
  const loader = import(new URL("pyodide.mjs", PYODIDE_URL).href);
  loader.catch(() => {}); // awaited after the downloads: not an unhandled rejection meanwhile
  import(new URL("pyodide.asm.mjs", PYODIDE_URL).href).catch(() => {}); // loadPyodide reports failures
  const downloads = await startDownloads(DOWNLOADS, onProgress);
  // compiled while the snapshot is read (and, on a first visit, while it downloads)
  const wasm = compileWasm(downloads.get(WASM_URL.href));
  wasm.catch(() => {}); // awaited below
  downloads.delete(WASM_URL.href);
  const course = new Uint8Array(await downloads.get(COURSE_URL.href).arrayBuffer());
  downloads.delete(COURSE_URL.href);
  const [{ loadPyodide }, wasmModule, snapshot] = await Promise.all([loader, wasm, saved]);
  const steps = {
    start: (options) => startPyodide(loadPyodide, downloads, wasmModule, options),
    // the grader's files (a snapshot holds the imported modules, not the file system)
    addCourse: (pyodide) => pyodide.unpackArchive(course, "zip", { extractDir: COURSE_DIR }),
  };
  return (await restore(steps, snapshot, onStarted)) ?? (await coldStart(steps, onStarted));
}

/** Python restored from `snapshot` and checked, or null (no snapshot, or it failed). */
async function restore({ start, addCourse }, snapshot, onStarted) {
  if (!snapshot) return null;
  let pyodide;
  try {
    pyodide = await start({ _loadSnapshot: snapshot });
    // a damaged snapshot fails here, not in a learner's run
    JSON.parse(pyodide.pyimport("grader").grade_json("add", "{}"));
  } catch {
    forgetSnapshot(); // and start as if it had never been saved
    return null;
  }
  onStarted(true); // runs wait for the rest, a few milliseconds
  addCourse(pyodide);
  return { pyodide, gradeJson: withFallback(pyodide) };
}

/** Python started from scratch, the grader imported and warmed up, and, when on, snapshotted. */
async function coldStart({ start, addCourse }, onStarted) {
  const pyodide = await start({ _makeSnapshot: Boolean(PYTHON_ASSETS.snapshot) });
  addCourse(pyodide);
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(COURSE_DIR)})`);
  const { grade_json: gradeJson } = pyodide.pyimport("grader");
  onStarted(false); // runs wait for the rest, which takes ~0.2 s
  gradeJson("add", "{}"); // reads the exercises: the first run is fast too
  // before the fallback is installed: a snapshot can hold no JavaScript function, and before any
  // learner's code has run
  if (PYTHON_ASSETS.snapshot) {
    try {
      saveSnapshot(SNAPSHOT_KEY, pyodide.makeMemorySnapshot());
    } catch {
      // Python runs all the same; the next visit starts from scratch too
    }
  }
  return { pyodide, gradeJson: withFallback(pyodide) };
}

/**
 * `loadPyodide(options)`, handed the responses already under way in `downloads` (each once;
 * anything else, or a second start, goes to the network or the HTTP cache) and `wasmModule`,
 * its WebAssembly already compiled, in place of the download it would compile.
 */
async function startPyodide(loadPyodide, downloads, wasmModule, options) {
  const { fetch: realFetch } = self;
  const { instantiateStreaming } = WebAssembly;
  self.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input, self.location.href).href;
    if (url === WASM_URL.href) return Promise.resolve(new Response()); // never read: see below
    const response = downloads.get(url);
    downloads.delete(url);
    return response ? Promise.resolve(response) : realFetch(input, init);
  };
  WebAssembly.instantiateStreaming = async (_response, imports) => ({
    module: wasmModule,
    instance: await WebAssembly.instantiate(wasmModule, imports),
  });
  try {
    return await loadPyodide({
      indexURL: PYODIDE_URL.href,
      stdLibURL: STDLIB_URL.href,
      lockFileContents: PYTHON_ASSETS.lock, // no packages to install
      stdout: () => {},
      ...options,
    });
  } finally {
    self.fetch = realFetch;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}

/** Installs the standard library's fallback; the grader's `grade_json`. */
function withFallback(pyodide) {
  pyodide.pyimport("_stdlib_fallback").install(writeFullStdlib(pyodide));
  return pyodide.pyimport("grader").grade_json;
}

/**
 * For tools/stdlib_fallback.py: writes Pyodide's full standard library at `path`, fetched
 * synchronously (Python's import waits for it), when a learner imports a module the trimmed one
 * lacks.
 */
function writeFullStdlib(pyodide) {
  return (path) => {
    const request = new XMLHttpRequest();
    request.open("GET", FULL_STDLIB_URL.href, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`${FULL_STDLIB_URL.pathname} answered HTTP ${request.status}`);
    pyodide.FS.writeFile(path, new Uint8Array(request.response));
  };
}

/**
 * Starts every download at once and answers with a `Map(url -> Response)`. A clone of each is
 * read to count the bytes delivered; the responses themselves go to Pyodide untouched, so that
 * the browser can cache the WebAssembly it compiles from the one it fetched.
 */
async function startDownloads(urls, onProgress) {
  const responses = await Promise.all(urls.map((url) => fetch(url)));
  const missing = responses.find((response) => !response.ok);
  if (missing) {
    const path = new URL(missing.url).pathname;
    throw new Error(
      `${path} could not be downloaded (HTTP ${missing.status}); whoever hosts this course should check that the whole built site was copied.`,
    );
  }
  const total = responses.reduce(
    (sum, response) => sum + Number(response.headers.get("content-length") || 0),
    0,
  );
  let loaded = 0;
  let reported = 0;
  const report = (force) => {
    // a message per ~1% is plenty for a progress bar
    if (!force && loaded - reported < total / 100) return;
    reported = loaded;
    onProgress(Math.min(loaded, total), total);
  };
  report(true);
  const count = async (response) => {
    const reader = response.clone().body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      loaded += chunk.value.byteLength;
      report(loaded >= total);
    }
  };
  for (const response of responses) count(response).catch(() => {}); // the real read reports errors
  return new Map(urls.map((url, i) => [url, responses[i]]));
}
