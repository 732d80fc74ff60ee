/**
 * Runs one exercise in the page's Python and shows the outcome: the panel's Run and Stop buttons,
 * the time limit, and what to tell the learner when a run had to be stopped.
 */
import { h } from "./dom.js";
import { MOD } from "./keys.js";
import { python } from "./python.js";

/**
 * Returns `{runButton, stopButton, run(bodies)}`. The Run button calls `onRun()`; `run` resolves
 * with the result to record (a stop at the time limit counts as a failed attempt), or null when
 * a newer run superseded it, the learner stopped it, or Python could not start. Stop is shown
 * while a run of this panel is waiting or running.
 */
export function createRunner({ exercise, result, timeLimit, onRun }) {
  let current = null;
  const runButton = h(
    "button",
    {
      type: "button",
      class: "mg-button mg-button--primary",
      "aria-keyshortcuts": MOD === "⌘" ? "Meta+Enter" : "Control+Enter",
      onclick: () => onRun(),
    },
    h("span", { class: "mg-button__icon", "aria-hidden": "true" }, "▶"),
    "Run test",
  );
  const stopButton = h(
    "button",
    { type: "button", class: "mg-button", hidden: true, onclick: () => current?.stop() },
    h("span", { class: "mg-button__icon", "aria-hidden": "true" }, "■"),
    "Stop",
  );

  function settle(run) {
    if (current !== run) return false;
    current = null;
    if (document.activeElement === stopButton) runButton.focus();
    stopButton.hidden = true;
    return true;
  }

  async function run(bodies) {
    current?.cancel(); // an older run still waiting is dropped; one already running ends unseen
    const handle = python.grade(exercise.id, bodies, { timeLimit, owner: result.el });
    current = handle;
    result.running(python.status.state !== "ready");
    stopButton.hidden = false;
    let outcome;
    try {
      outcome = await handle.done;
    } catch (error) {
      if (settle(handle)) result.failed(error.message);
      return null;
    }
    if (!settle(handle) || outcome.stopped?.reason === "left") return null;
    if (outcome.result) {
      result.show(outcome.result);
      return outcome.result;
    }
    const stopped = stoppedResult(exercise, outcome.stopped, timeLimit);
    result.show(stopped);
    return outcome.stopped.reason === "time" ? stopped : null;
  }

  return { runButton, stopButton, run };
}

/** What the learner reads about a stopped run, shaped like a grader result (verdict "stopped"). */
function stoppedResult(exercise, { reason, result, restarted }, timeLimit) {
  // where Python was when the interrupt reached it, if that was in the learner's code
  const error = result?.error?.type === "KeyboardInterrupt" && result.error.line ? result.error : null;
  const where = error ? ` It was running line ${error.line} of your \`${error.label}\` code.` : "";
  const seconds = `${timeLimit} ${timeLimit === 1 ? "second" : "seconds"}`;
  const summary =
    reason === "time"
      ? `Your code was still running after ${seconds}, the time limit.${where} A loop that never ends does this, or far more work than the test needs.`
      : `You pressed Stop.${where}`;
  const restart = restarted ? " Python had to be restarted to stop it, which takes a few seconds." : "";
  return {
    exercise: exercise.id,
    verdict: "stopped",
    summary: summary + restart,
    checks: [],
    error: error && { ...error, text: "" },
    stubs: [],
    stdout: result?.stdout ?? "",
    stdout_truncated: Boolean(result?.stdout_truncated),
  };
}
