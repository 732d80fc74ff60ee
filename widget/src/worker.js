/**
 * The Python worker: loads Pyodide, the trimmed standard library and python.zip (the grader and
 * the exercises) from where the build put them, then answers grade requests (see ARCHITECTURE.md).
 */
/* global PYTHON_ASSETS */ // set by widget/build.mjs: {pyodide, stdlib, course, lock}
const ASSETS_URL = new URL("../", import.meta.url);
const PYODIDE_URL = new URL(PYTHON_ASSETS.pyodide, ASSETS_URL);
const STDLIB_URL = new URL(PYTHON_ASSETS.stdlib, ASSETS_URL);
const FULL_STDLIB_URL = new URL("python_stdlib.zip", PYODIDE_URL);
const ZIP_URL = new URL(PYTHON_ASSETS.course, ASSETS_URL);
const COURSE_DIR = "/home/pyodide/course";
// the files worth a progress bar, fetched up front so their sizes are known from the start
const DOWNLOADS = [new URL("pyodide.asm.wasm", PYODIDE_URL), STDLIB_URL, ZIP_URL].map((url) => url.href);

const grader = boot();
grader.catch(() => {}); // reported to the page as "failed"

self.addEventListener("message", async ({ data }) => {
  if (data?.type !== "grade") return;
  let result;
  try {
    const gradeJson = await grader;
    result = JSON.parse(gradeJson(data.exercise, JSON.stringify(data.bodies)));
  } catch (error) {
    result = crashed(data.exercise, error);
  }
  self.postMessage({ type: "result", id: data.id, result });
});

async function boot() {
  const started = performance.now();
  try {
    const downloads = await startDownloads(DOWNLOADS);
    const zip = downloads.get(ZIP_URL.href);
    downloads.delete(ZIP_URL.href);
    const realFetch = self.fetch;
    self.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input, self.location.href).href;
      const response = downloads.get(url);
      downloads.delete(url);
      return response ? Promise.resolve(response) : realFetch(input, init);
    };
    const { loadPyodide } = await import(new URL("pyodide.mjs", PYODIDE_URL).href);
    const [pyodide, archive] = await Promise.all([
      loadPyodide({
        indexURL: PYODIDE_URL.href,
        stdLibURL: STDLIB_URL.href,
        lockFileContents: PYTHON_ASSETS.lock, // no packages to install: saves fetching the lock file
        stdout: () => {},
      }),
      zip.arrayBuffer(),
    ]);
    self.fetch = realFetch;
    pyodide.pyimport("_stdlib_fallback").install(writeFullStdlib(pyodide));
    pyodide.unpackArchive(archive, "zip", { extractDir: COURSE_DIR });
    pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(COURSE_DIR)})`);
    const gradeJson = pyodide.pyimport("grader").grade_json;
    self.postMessage({ type: "ready", ms: Math.round(performance.now() - started) });
    return gradeJson;
  } catch (error) {
    self.postMessage({ type: "failed", message: `${error.message || error}` });
    throw error;
  }
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
 * Starts every download at once and answers with a `Map(url -> Response)`; a clone of each is
 * read to count the bytes delivered, and progress goes to the page as `{type: "progress",
 * loaded, total}`. The responses themselves go to Pyodide untouched: the browser caches the
 * compiled WebAssembly only for a response it fetched itself.
 */
async function startDownloads(urls) {
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
    self.postMessage({ type: "progress", loaded: Math.min(loaded, total), total });
  };
  report(true);
  const counted = async (response) => {
    const reader = response.clone().body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      loaded += chunk.value.byteLength;
      report(loaded >= total);
    }
  };
  for (const response of responses) counted(response).catch(() => {}); // the real read reports errors
  return new Map(urls.map((url, i) => [url, responses[i]]));
}

/** A grader-shaped result for a failure outside the learner's code, so the page can show it. */
function crashed(exercise, error) {
  const message = `${error?.message || error}`;
  return {
    exercise,
    verdict: "error",
    summary: "Python could not grade this run; reload the page to start it again.",
    checks: [],
    error: { type: error?.type || error?.name || "Error", message, text: message },
    stubs: [],
    stdout: "",
    stdout_truncated: false,
  };
}
