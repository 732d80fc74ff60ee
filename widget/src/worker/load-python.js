/**
 * Loads Python with the course's grader, in the worker, as fast as the browser allows: every
 * download starts as the worker starts, the WebAssembly compiles as it arrives, Pyodide's two
 * modules are imported meanwhile, the standard library is the build's trimmed and compiled one
 * (stdlib/build.mjs), and the lock file's info comes with the bundle instead of a request.
 * With memory snapshots on, Python is restored from the snapshot the page vouches for
 * (snapshot.js) instead of started. What the build chose is the constant PYTHON_ASSETS, set by
 * widget/build.mjs: {pyodide, stdlib, course, lock, snapshot}.
 */
import { compileWasm } from "./hosting.js";
import { loadWithModule, makeSnapshot, snapshotOptions } from "./pyodide-private.js";
import { packSnapshot, readSnapshot, saveSnapshot, snapshotKey, verifiedSnapshot } from "./snapshot.js";

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
 * Starts what does not depend on the worker's role, at once: the downloads (`onProgress(loaded,
 * total)` counts their bytes), the WebAssembly's compilation, Pyodide's modules, and the read
 * of the saved snapshot.
 */
export function startLoading(onProgress) {
  const loader = import(new URL("pyodide.mjs", PYODIDE_URL).href);
  const asm = import(new URL("pyodide.asm.mjs", PYODIDE_URL).href);
  const downloads = startDownloads(DOWNLOADS, onProgress);
  const wasm = downloads.then((found) => compileWasm(found.get(WASM_URL.href)));
  const course = downloads.then((found) => found.get(COURSE_URL.href).arrayBuffer());
  const saved = PYTHON_ASSETS.snapshot ? readSnapshot(SNAPSHOT_KEY) : Promise.resolve(null);
  for (const promise of [loader, asm, wasm, course]) promise.catch(() => {}); // awaited in loadPython
  return { loader, asm, downloads, wasm, course, saved };
}

/**
 * Python for `role` ("judge" or "runner"): restored from a snapshot whose SHA-256 is `digest`
 * (`snapshot`, a Blob the page handed over, else the one saved here), or started from scratch.
 * A judge started from scratch with snapshots on saves its memory first and calls
 * `onSnapshot({blob, digest})`. Resolves with `{observe, judge, restored}`, the grader's two
 * halves as JSON functions.
 */
export async function loadPython(loading, { role, digest, snapshot }, onSnapshot) {
  const [{ loadPyodide }, { default: createPyodideModule }, downloads, wasmModule, course] = await Promise.all([
    loading.loader,
    loading.asm,
    loading.downloads,
    loading.wasm,
    loading.course,
  ]);
  downloads.delete(WASM_URL.href); // compiled already: Pyodide never reads it
  downloads.delete(COURSE_URL.href);
  const start = (options) =>
    handingOver(downloads, () =>
      loadWithModule(loadPyodide, wasmModule, {
        indexURL: PYODIDE_URL.href,
        stdLibURL: STDLIB_URL.href,
        lockFileContents: PYTHON_ASSETS.lock, // no packages to install
        createPyodideModule,
        stdout: () => {},
        ...options,
      }),
    );
  const withFiles = (pyodide) => {
    pyodide.unpackArchive(new Uint8Array(course), "zip", { extractDir: COURSE_DIR });
    return pyodide;
  };
  const memory = PYTHON_ASSETS.snapshot
    ? await verifiedSnapshot(snapshot ?? (await loading.saved), digest).catch(() => null)
    : null;
  const restored = memory && (await restore(start, withFiles, memory));
  const pyodide = restored ?? (await coldStart(start, withFiles, role, onSnapshot));
  if (role === "runner") pyodide.pyimport("_stdlib_fallback").install(writeFullStdlib(pyodide));
  return { pyodide, restored: Boolean(restored), ...halves(pyodide) };
}

function halves(pyodide) {
  return {
    observe: pyodide.pyimport("grader.observe").observe_json,
    judge: pyodide.pyimport("grader.judge").judge_json,
  };
}

/** Python restored from `memory` and checked, or null when it fails. */
async function restore(start, withFiles, memory) {
  try {
    const pyodide = withFiles(await start(snapshotOptions({ restore: memory })));
    const { observe, judge } = halves(pyodide);
    JSON.parse(judge("add", "{}", observe("add", "{}"))); // a damaged memory fails here, not later
    return pyodide;
  } catch {
    return null;
  }
}

/** Python started from scratch, the grader imported and warmed up; a judge snapshots itself. */
async function coldStart(start, withFiles, role, onSnapshot) {
  const snapshotting = role === "judge" && Boolean(PYTHON_ASSETS.snapshot);
  const pyodide = withFiles(await start(snapshotOptions({ make: snapshotting })));
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(COURSE_DIR)})`);
  const { observe, judge } = halves(pyodide);
  judge("add", "{}", observe("add", "{}")); // reads the exercises: the first run is fast too
  if (snapshotting) {
    // no learner code has run in this interpreter, and no JavaScript function is held yet
    let packed = null;
    try {
      packed = await packSnapshot(makeSnapshot(pyodide));
      await saveSnapshot(SNAPSHOT_KEY, packed.blob);
    } catch {
      // Python runs all the same; later starts are from scratch
    }
    onSnapshot(packed);
  }
  return pyodide;
}

/**
 * Runs `load()` (`loadPyodide`) with its requests for the files already under way answered by
 * those responses (each once); anything else goes to the network or the HTTP cache.
 */
async function handingOver(downloads, load) {
  const { fetch: realFetch } = self;
  self.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input, ASSETS_URL).href;
    if (url === WASM_URL.href) return Promise.resolve(new Response()); // never read
    const response = downloads.get(url);
    downloads.delete(url);
    return response ? Promise.resolve(response) : realFetch(input, init);
  };
  try {
    return await load();
  } finally {
    self.fetch = realFetch;
  }
}

/**
 * For stdlib/fallback.py: writes Pyodide's full standard library at `path`, fetched
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
  const total = responses.reduce((sum, response) => sum + Number(response.headers.get("content-length") || 0), 0);
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
