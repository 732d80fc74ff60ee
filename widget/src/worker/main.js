/**
 * A Python worker: Pyodide and the course's grader, in the role the page gives it.
 *
 * - judge: turns what a run did (an observation) into the learner's result; never runs
 *   learner code, so nothing learner code does can reach the verdict.
 * - runner: runs one learner's code (one test run, or one training session), then the page
 *   throws it away: nothing it did reaches the next run.
 *
 * Loading starts before the page says which (load-python.js); messages go over the page's
 * private channel (channel.js; see ARCHITECTURE.md).
 */
import { connected, on, send } from "./channel.js";
import { bootFailure } from "./hosting.js";
import { FILES, loadPython, startLoading } from "./load-python.js";

const started = performance.now();
const loading = startLoading((loaded, total) => send({ type: "progress", loaded, total }));

connected.then(async (request) => {
  let python;
  try {
    python = await loadPython(loading, request, (packed) =>
      send({ type: "snapshot", blob: packed?.blob ?? null, digest: packed?.digest ?? null }),
    );
  } catch (error) {
    send({ type: "failed", message: bootFailure(error, FILES) });
    return;
  }
  if (request.role === "judge") serveJudge(python);
  else serveRunner(python, request.interrupt);
  send({ type: "ready", ms: Math.round(performance.now() - started), restored: python.restored });
});

function serveJudge({ judge }) {
  on("judge", ({ id, exercise, bodies, observation }) => {
    try {
      send({ type: "judged", id, result: judge(exercise, JSON.stringify(bodies), observation) });
    } catch (error) {
      send({ type: "judged", id, result: null, message: `${error?.message || error}` });
    }
  });
}

function serveRunner(python, interrupt) {
  if (interrupt) python.pyodide.setInterruptBuffer(new Uint8Array(interrupt));
  const run = ({ exercise, bodies }) => {
    // learner code runs from here on: this worker answers once, then the page ends it
    try {
      send({ type: "observed", observation: python.observe(exercise, JSON.stringify(bodies)) });
    } catch (error) {
      send({ type: "crashed", message: `${error?.message || error}` });
    }
  };
  on("run", run);
}
