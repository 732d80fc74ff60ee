/**
 * What the training widget says when training stops: by itself (converged, or its step limit),
 * saying how well it fits or how it failed (verdict.js) and the switch or setting likely to
 * blame, or because something went wrong, with a link to the tab of the closure at fault. Pure.
 */
import { crashCause } from "../exercise/page-results.js";
import { tabLinks, tabOnPage } from "../exercise/where.js";
import { compact } from "../plots/ticks.js";
import { failed, NEAR_CHANCE } from "./verdict.js";

const percent = (share) => `${Math.round(share * 100)}%`;

// what each "break it" switch does, said where it is the likely cause of a run that failed
const SWITCHES = {
  no_zero_grad:
    "The “break it” switch “Skip zero_grad()” is on: the gradients pile up from step to step, so each step follows the sum of all past gradients, not its own batch's.",
  rate_too_high: (times) =>
    `The “break it” switch makes the learning rate ${times} times the one set: each step overshoots by far.`,
  assign_add:
    "The “break it” switch puts = in place of += in __add__: each bias's gradient is one point's of its batch, not the sum over the batch.",
};
// the switch likeliest to blame for each way a run fails
const LIKELY = { "blew-up": "rate_too_high", leapt: "rate_too_high", rose: "no_zero_grad", chance: null };
// what does it when no switch is on
const OTHERWISE = {
  "blew-up": "Each step overshoots: the learning rate is far too high for this network. Lower it in the settings.",
  leapt: "Each step overshoots: the learning rate is too high for this network. Lower it in the settings.",
  rose: "Steps that go uphill do this: gradients that pile up from step to step (no zero_grad()), a gradient with the wrong sign in a closure, or a learning rate too high.",
  chance:
    "A learning rate far too high or too low, or gradients that are wrong (a closure's, or piling up from step to step), does this.",
};

/** The switch or setting likely to blame for a run that failed in the way `kind` says. */
function likely(kind, { broken = [], rateTimes }) {
  const say = (key) => (key === "rate_too_high" ? SWITCHES[key](rateTimes) : SWITCHES[key]);
  const on = [LIKELY[kind], ...Object.keys(SWITCHES)].find((key) => key && broken.includes(key));
  return on ? say(on) : OTHERWISE[kind];
}

/** What the loss did in a run that failed (`verdict`'s figures), with the accuracy. */
function whatFailed({ kind, start, lowest, peak, end }, accuracy, chance, window) {
  const mean = `its mean over the last ${window} steps`;
  const fell = {
    "blew-up": `the loss blew up from ${compact(start)} to ${compact(peak)} (a mean over ${window} steps)`,
    rose: `the loss rose from ${compact(Math.min(start, lowest))} to ${compact(end)} (${mean})`,
    chance: `the loss stays at ${compact(end)} (${mean})`,
  }[kind];
  const than = accuracy <= chance ? "no better" : "hardly better";
  const far = accuracy <= chance + NEAR_CHANCE ? `, ${than} than a coin toss's ${percent(chance)}` : "";
  return `${fell}, and the accuracy is ${percent(accuracy)}${far}`;
}

/**
 * Why training stopped by itself, said: `finished` is training/session.py's ("limit" or
 * "converged") or the widget's ("failed", once the verdict saw it), `config` the session's
 * (its step limit, window and what counts as settled), `verdict` verdict.js's on the run so
 * far, `accuracy` the model's, `chance` a coin toss's, `points` how many, and `context` the
 * "break it" switches on (`broken`) and how far the rate switch multiplies (`rateTimes`).
 */
export function finishedText({ finished, step, config, verdict, accuracy, chance, points, context = {} }) {
  const { step_limit: limit, window, settled } = config;
  if (failed(verdict)) {
    const how = whatFailed(verdict, accuracy, chance, window);
    return `Training stopped at step ${step} and failed: ${how}. ${likely(verdict.kind, context)} Reset starts again.`;
  }
  const goOn = `Train goes on from here, for up to ${limit} more steps.`;
  const wrong = Math.round((1 - accuracy) * points);
  const left = wrong
    ? `${wrong} of the ${points} points ${wrong === 1 ? "is" : "are"} still on the wrong side.`
    : "every point is on its side.";
  const switched = wrong && context.broken?.includes("assign_add") ? ` ${SWITCHES.assign_add}` : "";
  const leapt =
    verdict?.kind === "leapt"
      ? ` On the way, the loss leapt to ${compact(verdict.peak)} (a mean over ${window} steps). ${likely("leapt", context)}`
      : "";
  if (finished === "limit")
    return `Training stopped by itself at step ${step}: ${limit} steps since it started or last went on is its limit, and ${left}${switched}${leapt} ${goOn}`;
  return `Training stopped by itself at step ${step}: the loss has stopped falling (its mean over the last ${window} steps is less than ${Math.round(settled * 100)}% below its mean over the ${window} before), so more steps would change little, and ${left}${switched}${leapt} ${goOn}`;
}

/**
 * What ended training, said for the learner (exercise/where.js's parts), or null when nothing did:
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
