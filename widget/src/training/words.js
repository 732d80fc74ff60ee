/**
 * What the training widget says when training stops: by itself (converged, or its step limit),
 * or because something went wrong, with a link to the tab of the closure at fault. Pure.
 */
import { crashCause } from "../exercise/page-results.js";
import { tabLinks, tabOnPage } from "./where.js";

/**
 * Why training stopped by itself, said: `finished` is training/session.py's ("limit" or
 * "converged"), `config` the session's (its step limit, window and what counts as settled).
 */
export function finishedText({ finished, step, config }) {
  const { step_limit: limit, window, settled } = config;
  const goOn = `Train goes on from here, for up to ${limit} more steps.`;
  if (finished === "limit")
    return `Training stopped by itself at step ${step}: ${limit} steps since it started or last went on is its limit. ${goOn}`;
  return `Training stopped by itself at step ${step}: the loss has stopped falling (its mean over the last ${window} steps is less than ${Math.round(settled * 100)}% below its mean over the ${window} before), so more steps would change little. ${goOn}`;
}

/**
 * What ended training, said for the learner (where.js's parts), or null when nothing did:
 * `trainedOps` are the widget's (course/widget_data.py), `starters` those training with their starter
 * code, `assignAdd` whether the "break it" switch puts = for += in `__add__`.
 */
export function problemOf(answer, step, timeLimit, { trainedOps, starters, assignAdd }) {
  if (answer.stopped?.reason === "time")
    return [
      `Training stopped at step ${step}: a few steps took longer than ${timeLimit} seconds, the time limit. A loop that never ends in a closure does this.`,
    ];
  if (answer.crashed) return [`Training stopped at step ${step}: Python crashed: ${crashCause(answer.crashed)}.`];
  if (answer.error) return [`Training stopped at step ${answer.step ?? step}: ${answer.error.summary}.`];
  if (!answer.problem) return null;
  const { op, step: at, stalled } = answer.problem;
  if (stalled) {
    const still = starters.length
      ? [" Still the starter code: ", ...tabLinks(starters), ", on the Write the closures page."]
      : [];
    return [`Training stopped at step ${at}: no gradient reached any weight or bias, so nothing can learn.`, ...still];
  }
  const culprit = trainedOps.find((o) => o.op === op);
  if (!culprit)
    return [
      `Training stopped at step ${at}: the loss or the weights stopped being numbers (nan or infinity), though every closure kept its gradients finite. A learning rate far too high does this.`,
    ];
  const switched = op === "add" && assignAdd;
  return [
    `Training stopped at step ${at}: the ${culprit.label} closure turned a gradient into something that is not a number (nan or infinity). `,
    ...(switched
      ? ["The “break it” switch put = in place of += in it: turn the switch off, and if it still happens, look at "]
      : ["Look at what it adds, in "]),
    ...tabOnPage(culprit),
    ".",
  ];
}
