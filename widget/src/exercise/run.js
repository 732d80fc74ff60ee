/**
 * Runs one exercise in the page's Python and shows the outcome: the panel's Run and Stop buttons,
 * the time limit, and what to tell the learner when a run was stopped or broke.
 */
import { RUN_KEY } from "../editor/keys.js";
import { h } from "../shared/dom.js";
import { python } from "../python/python.js";
import { crashedResult, stoppedResult } from "./page-results.js";

/**
 * Returns `{runButton, stopButton, run(bodies, told)}` (`told`: the ops whose rule the verdict
 * may say, ladder.js). The Run button calls `onRun()`; `run` resolves
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
      "aria-keyshortcuts": RUN_KEY.shortcut,
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

  async function run(bodies, told = []) {
    current?.cancel(); // an older run still waiting is dropped; one already running ends unseen
    const handle = python.grade(exercise.id, bodies, { timeLimit, owner: result.el, told });
    current = handle;
    result.running(!python.canGrade);
    stopButton.hidden = false;
    let outcome;
    try {
      outcome = await handle.done;
    } catch (error) {
      if (settle(handle)) result.failed(error.message);
      return null;
    }
    if (!settle(handle) || outcome.stopped?.reason === "left") return null;
    const shown =
      outcome.result ??
      (outcome.crashed !== undefined
        ? crashedResult(exercise.id, outcome.crashed)
        : stoppedResult(exercise.id, outcome.stopped, timeLimit));
    result.show(shown);
    // a phone shows little beside the editor: bring the verdict into view
    if (matchMedia("(max-width: 600px)").matches) result.el.scrollIntoView({ block: "start", behavior: "smooth" });
    return outcome.stopped?.reason === "stop" ? null : shown;
  }

  return { runButton, stopButton, run };
}
