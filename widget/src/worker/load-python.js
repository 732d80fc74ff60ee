/**
 * Loads Python with the course's grader, in the worker, as fast as the browser allows: every
 * download starts as the worker starts, the WebAssembly compiles as it arrives, Pyodide's two
 * modules are imported meanwhile, the standard library is the build's trimmed and compiled one
 * (bytecode/build.mjs), and the lock file's info comes with the bundle instead of a request.
 * With memory snapshots on, Python is restored from the snapshot the page vouches for
 * (snapshot.js) instead of started. What the build chose is the constant PYTHON_ASSETS, set by
 * widget/build.mjs: {pyodide, stdlib, runner, grader, lock, snapshot}.
 *
 * A runner gets runner.zip only: the learner's side of grading and the exercises' checks, no
 * answer key. The judge gets grader.zip too. A runner's snapshot is made before it runs
 * anything: runners restore it, and so does a judge without one of its own, which then imports
 * the grader; such a judge makes its own once it is warm, if nothing was asked of it yet.
 *
 * Each start reports its phases, in ms since the worker started (the benchmark reads them):
 * `files` (downloads, the WebAssembly compiled, Pyodide's modules), `read` (a saved memory read
 * and checked), `python` (Python started or restored), `warm` (the archives mounted, the grader
 * warmed up) and `ready` (a first runner's memory packed).
 */
import { compileWasm } from "./hosting.js";
import { loadWithModule, makeSnapshot, snapshotOptions } from "./pyodide-private.js";
import { readSnapshot, snapshotKey } from "../shared/snapshot-store.js";
import { handedSnapshot, packSnapshot, verifiedSnapshot } from "./snapshot.js";
import { memoriesToTry, memoryToMake, savedMemories } from "../shared/snapshot-rules.js";

const ASSETS_URL = new URL("../", import.meta.url);
const PYODIDE_URL = new URL(PYTHON_ASSETS.pyodide, ASSETS_URL);
const STDLIB_URL = new URL(PYTHON_ASSETS.stdlib, ASSETS_URL);
const FULL_STDLIB_URL = new URL("python_stdlib.zip", PYODIDE_URL);
const ARCHIVES = {
  runner: [new URL(PYTHON_ASSETS.runner, ASSETS_URL)],
  judge: [new URL(PYTHON_ASSETS.runner, ASSETS_URL), new URL(PYTHON_ASSETS.grader, ASSETS_URL)],
};
// each download's size as the build wrote it (a compressing host sends fewer bytes)
const SIZES = {
  [new URL("pyodide.asm.wasm", PYODIDE_URL).href]: PYTHON_ASSETS.sizes.wasm,
  [STDLIB_URL.href]: PYTHON_ASSETS.sizes.stdlib,
  [ARCHIVES.judge[0].href]: PYTHON_ASSETS.sizes.runner,
  [ARCHIVES.judge[1].href]: PYTHON_ASSETS.sizes.grader,
};
const COURSE_DIR = "/home/pyodide/course";
const WASM_URL = new URL("pyodide.asm.wasm", PYODIDE_URL);
// a role's snapshot is for the files it was made from
const BASE_FILES = { pyodide: PYODIDE_URL.href, stdlib: STDLIB_URL.href, runner: ARCHIVES.runner[0].href };
const SNAPSHOT_KEYS = {
  runner: snapshotKey(BASE_FILES),
  judge: snapshotKey({ ...BASE_FILES, grader: ARCHIVES.judge[1].href }),
};
/** The files a failure to start may come from, for the message that names them. */
export const FILES = { wasm: WASM_URL.href, stdlib: STDLIB_URL.href, course: ARCHIVES.judge.map(String) };
// (a runner names the archives it does not fetch too: the message is for whoever hosts the site)

/**
 * Starts everything at once, for `role` ("judge" or "runner"): the downloads (`onProgress(loaded,
 * total, sent)` counts their bytes, see `startDownloads`), the WebAssembly's compilation,
 * Pyodide's modules, and the read of the saved snapshot. `handed`, when the page hands over the
 * WebAssembly module it holds (the judge's, for later runners), resolves with it: then it is
 * neither fetched nor compiled here (unless it does not come after all).
 */
export function startLoading(role, onProgress, handed = null) {
  const archives = ARCHIVES[role].map((url) => url.href);
  const loader = import(new URL("pyodide.mjs", PYODIDE_URL).href);
  const asm = import(new URL("pyodide.asm.mjs", PYODIDE_URL).href);
  // at once when nothing is handed over: the WebAssembly is the longest download
  const module = handed
    ? handed.then((found) => (found instanceof WebAssembly.Module ? found : null))
    : Promise.resolve(null);
  const urls = [...(handed ? [] : [WASM_URL.href]), STDLIB_URL.href, ...archives];
  const downloads = startDownloads(urls, onProgress);
  const wasm = module.then((found) => found ?? compiledWasm(downloads));
  const course = downloads.then((found) => Promise.all(archives.map((url) => found.get(url).arrayBuffer())));
  const memories = PYTHON_ASSETS.snapshot ? savedMemories(role) : [];
  const saved = Object.fromEntries(memories.map((memory) => [memory, readSnapshot(memory, SNAPSHOT_KEYS[memory])]));
  for (const promise of [loader, asm, wasm, course]) promise.catch(() => {}); // awaited in loadPython
  return { role, archives, loader, asm, downloads, wasm, course, saved };
}

/** The WebAssembly, compiled as it downloads (fetched now, if it was to be handed over and was not). */
async function compiledWasm(downloads) {
  return compileWasm((await downloads).get(WASM_URL.href) ?? downloaded(await fetch(WASM_URL.href)));
}

/** `response` if the host sent the file; else an error that says what whoever hosts should check. */
function downloaded(response) {
  if (response.ok) return response;
  const path = new URL(response.url).pathname;
  throw new Error(
    `${path} could not be downloaded (HTTP ${response.status}); whoever hosts this course should check that the whole built site was copied.`,
  );
}

/**
 * Python for the role `loading` was started for: restored from `snapshot` (a runner's Blob the
 * page handed over), else from a saved memory whose SHA-256 is in `digests` (the judge's own
 * first, then a runner's), or started from scratch (snapshot-rules.js says which, and what it
 * makes). Resolves with `{pyodide, restored, run, warmUp, snapshotting, packWarm, phases}`: `restored`
 * names the memory restored ("runner", "judge") or is null, `run(...args)` is the role's
 * grading function, JSON in and out, and `warmUp()` calls it on course code only. A runner
 * started from scratch packs its memory before it runs anything: `snapshotting` resolves with
 * `{blob, digest, key}` (or null), for the page to save. A judge with no memory of its own gets
 * `packWarm()`, which packs its memory as it is (its caller makes sure nothing was asked of it
 * yet); else it is null.
 */
export async function loadPython(loading, { digests = {}, snapshot = null }) {
  const { role } = loading;
  const snapshots = Boolean(PYTHON_ASSETS.snapshot);
  const makes = (restored) => memoryToMake(role, restored, { snapshots });
  const { start, mount } = await starting(loading);
  const phases = { files: now() };
  let pyodide = null;
  let restored = null;
  for (const { memory, from } of memoriesToTry(role, { snapshots, handed: Boolean(snapshot) })) {
    const reading =
      from === "handed"
        ? handedSnapshot(snapshot)
        : loading.saved[memory].then((saved) => verifiedSnapshot(saved, digests[memory]));
    const packed = await reading.catch(() => null);
    phases.read = now();
    pyodide = packed && (await restore(start, mount, role, { restore: packed, make: makes(memory) !== null }, phases));
    if (pyodide) {
      restored = memory;
      break;
    }
  }
  if (!pyodide) {
    pyodide = await start({ make: makes(null) !== null });
    phases.python = now();
    mount(pyodide);
    warmUp(pyodide, role); // reads the exercises: the first run is fast too
  }
  phases.warm = now();
  const snapshotting = makes(restored) === "now" ? packMemory(pyodide, "runner") : Promise.resolve(null);
  await snapshotting;
  if (role === "runner") pyodide.pyimport("_stdlib_fallback").install(writeFullStdlib(pyodide));
  const packWarm = makes(restored) === "when-warm" ? () => packMemory(pyodide, "judge") : null;
  const run = grading(pyodide, role);
  phases.ready = now();
  return { pyodide, restored, run, warmUp: () => warmUp(pyodide, role), snapshotting, packWarm, phases };
}

/** Milliseconds since the worker started, whole: for the phases `loadPython` reports. */
const now = () => Math.round(performance.now());

/** Once `loading` has everything: `start(memory)`, which starts Pyodide (`memory`: `{make}` or
 * `{restore: the packed memory, make}`, pyodide-private.js), and `mount(pyodide)`. */
async function starting(loading) {
  const [{ loadPyodide }, { default: createPyodideModule }, downloads, wasmModule, archives] = await Promise.all([
    loading.loader,
    loading.asm,
    loading.downloads,
    loading.wasm,
    loading.course,
  ]);
  downloads.delete(WASM_URL.href); // compiled already: Pyodide never reads it
  for (const url of loading.archives) downloads.delete(url);
  const start = (memory) =>
    handingOver(downloads, () =>
      loadWithModule(loadPyodide, wasmModule, {
        indexURL: PYODIDE_URL.href,
        stdLibURL: STDLIB_URL.href,
        lockFileContents: PYTHON_ASSETS.lock, // no packages to install
        createPyodideModule,
        stdout: () => {},
        ...snapshotOptions(memory, createPyodideModule),
      }),
    );
  return { start, mount: (pyodide) => mountArchives(pyodide, loading.archives, archives) };
}

/**
 * The course's archives (`bytes` of those at `urls`) written whole into COURSE_DIR and put on
 * `sys.path`: Python imports from them as they are (zipimport), as it does from the standard
 * library's. Extracting them cost the judge ~90 ms before its first verdict.
 */
function mountArchives(pyodide, urls, bytes) {
  pyodide.FS.mkdirTree(COURSE_DIR);
  const paths = urls.map((url) => `${COURSE_DIR}/${url.split("/").at(-1)}`);
  paths.forEach((path, i) => pyodide.FS.writeFile(path, new Uint8Array(bytes[i])));
  // a damaged archive fails here, by its name (an import would only say "No module named");
  // a restored memory has runner.zip on its path already
  pyodide.runPython(`import sys, zipimport
for p in ${JSON.stringify(paths)}:
    zipimport.zipimporter(p)
    p in sys.path or sys.path.insert(0, p)`);
}

/** The role's half of grading (JSON in, JSON out). */
function grading(pyodide, role) {
  if (role === "runner") return pyodide.pyimport("runner.observe").observe_json;
  return pyodide.pyimport("grader.judge").judge_json;
}

/** A call of the role's half on the starter code of `add` (course code only): later ones are fast. */
function warmUp(pyodide, role) {
  const observation = pyodide.pyimport("runner.observe").observe_json("add", "{}");
  if (role === "judge") JSON.parse(grading(pyodide, role)("add", "{}", observation));
}

/**
 * Python restored as `memory` says (`{restore, make}`, the packed memory of a runner, made
 * before it ran anything, or of a judge, made before it judged anything) and checked, or null
 * when it fails; a judge restoring a runner's mounts and imports the grader on top.
 */
async function restore(start, mount, role, memory, phases) {
  try {
    const pyodide = await start(memory);
    phases.python = now();
    mount(pyodide);
    warmUp(pyodide, role); // a damaged memory fails here, not in a learner's run
    return pyodide;
  } catch {
    return null;
  }
}

/**
 * This Python's memory, for the page to save (and hand a runner's to later runners): no
 * learner code has run in it, and no JavaScript function is held yet. Resolves with `{blob,
 * digest, key}` (`role`'s snapshot key), or null when it cannot (later starts are then as they
 * would be without it). The page saves it: a worker's save made a first visit's runner ready
 * ~120 ms later.
 */
async function packMemory(pyodide, role) {
  try {
    return { ...(await packSnapshot(makeSnapshot(pyodide))), key: SNAPSHOT_KEYS[role] };
  } catch {
    return null;
  }
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
 * For bytecode/fallback.py: writes Pyodide's full standard library at `path`, fetched
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
 *
 * `onProgress(loaded, total, sent)`: the bytes read so far and in all, as the build wrote the
 * files (a body arrives decompressed), and how many bytes the host sends in all (fewer, where it
 * compresses them: what a learner waits for).
 */
async function startDownloads(urls, onProgress) {
  const responses = (await Promise.all(urls.map((url) => fetch(url)))).map(downloaded);
  const sizes = urls.map((url) => SIZES[url] ?? 0);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const sent = responses.reduce((sum, response, i) => {
    const length = Number(response.headers.get("content-length"));
    return sum + (response.headers.get("content-encoding") && length > 0 ? length : sizes[i]);
  }, 0);
  let loaded = 0;
  let reported = 0;
  const report = (force) => {
    // a message per ~1% is plenty for a progress bar
    if (!force && loaded - reported < total / 100) return;
    reported = loaded;
    onProgress(Math.min(loaded, total), total, sent);
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
