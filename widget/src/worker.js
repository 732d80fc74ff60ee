/**
 * The Python worker: loads Pyodide from the site's own `assets/pyodide/`, the grader and the
 * exercises from `python.zip` next to this file, then answers grade requests (see ARCHITECTURE.md).
 */
const PYODIDE_URL = new URL("../pyodide/", import.meta.url);
const ZIP_URL = new URL("./python.zip", import.meta.url);
const COURSE_DIR = "/home/pyodide/course";
// the files worth a progress bar, fetched up front so their sizes are known from the start
const DOWNLOADS = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"].map(
  (file) => new URL(file, PYODIDE_URL).href,
);

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
    const downloads = await startDownloads([...DOWNLOADS, ZIP_URL.href]);
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
      loadPyodide({ indexURL: PYODIDE_URL.href, stdout: () => {} }),
      zip.arrayBuffer(),
    ]);
    self.fetch = realFetch;
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
 * Starts every download at once and answers with a `Map(url -> Response)` whose bodies count
 * the bytes they deliver; progress goes to the page as `{type: "progress", loaded, total}`.
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
  const counted = (response) => {
    const counter = new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        report(loaded >= total);
        controller.enqueue(chunk);
      },
    });
    const { status, statusText, headers } = response;
    return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
  };
  return new Map(urls.map((url, i) => [url, counted(responses[i])]));
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
