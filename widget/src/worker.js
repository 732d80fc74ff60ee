/**
 * The Python worker: loads the grader into Pyodide (load-python.js), then answers grade requests
 * (see ARCHITECTURE.md).
 */
import { loadGrader } from "./load-python.js";

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
    const gradeJson = await loadGrader((loaded, total) => self.postMessage({ type: "progress", loaded, total }));
    self.postMessage({ type: "ready", ms: Math.round(performance.now() - started) });
    gradeJson("add", "{}"); // reads the exercises and warms the grader up, so the first run is fast too
    return gradeJson;
  } catch (error) {
    self.postMessage({ type: "failed", message: `${error.message || error}` });
    throw error;
  }
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
