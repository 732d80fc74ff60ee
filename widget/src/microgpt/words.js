/**
 * What the microgpt widget says when training goes wrong, and whom it blames: an op whose
 * local gradients a nudge disagrees with (microgpt/culprit.py), with a link to its tab on the
 * Local gradients page; a "break it" switch, when one put the wrong tuple there; the starter
 * tuples, which pass no gradient back; or the training loop. Words are parts (exercise/where.js). They
 * give numbers, the tuple's against a nudge's, never the local derivative itself.
 *
 * `context`: `{trainedOps, broken, starters}`: the widget's trained ops (course/widget_data.py: op, design,
 * exercise, label), the break-it switches turned on, and the ops training with starter code.
 */
import { crashCause } from "../exercise/page-results.js";
import { tabLinks, tabOnPage } from "../exercise/where.js";
import { compact } from "../plots/ticks.js";
import { failed } from "../training/verdict.js";

const INPUTS = { add: ["self", "other"], mul: ["self", "other"] }; // the rest have one: x
// the switches that put a wrong tuple in an op's place (microgpt/worker.py's WRONG), by name
const SWITCHES = {
  wrong_log: { op: "log", name: "log returns (x,)" },
  wrong_exp: { op: "exp", name: "exp returns (x,)" },
};
const LOOP = {
  no_zero_grad:
    "the “break it” switch “Never set p.grad = 0” is on: each step follows the sum of every gradient so far, not its own name's, so the longer it trains the further it strays.",
  rate_too_high:
    "the “break it” switch for a learning rate 10 times microgpt's is on: Adam's steps overshoot, and the loss leaps up and settles only as the rate decays.",
};

// a run that stays at a uniform guess's loss with nothing else to blame
const SHORT =
  "too few steps, or a learning rate too low, leave it there: more steps or a higher rate in the settings let it learn.";

const seven = (value) => (typeof value === "number" ? value.toFixed(7) : String(value));
const label = (op, context) => context.trainedOps.find((o) => o.op === op)?.label ?? op;

/** The switch that put `op`'s tuple in place, or null. */
function switchOf(op, broken) {
  const key = broken.find((name) => SWITCHES[name]?.op === op);
  return key ? SWITCHES[key] : null;
}

/** One op's disagreement, said with numbers: `{op, inputs, given, measured, input}` from the runner. */
export function disagreement({ op, inputs, given, measured, input }, context) {
  const names = INPUTS[op] ?? ["x"];
  const name = label(op, context);
  const at = inputs.map((value, i) => `${names[i]} = ${seven(value)}`).join(", ");
  if (measured === null)
    return `${name}'s tuple has ${given.length} local gradient${given.length === 1 ? "" : "s"}, where ${name} has ${inputs.length} input${inputs.length > 1 ? "s" : ""}.`;
  const which = names.length > 1 ? ` for ${names[input]}` : "";
  return `${name}'s local gradient${which} disagrees with a nudge: at ${at}, the tuple gives ${seven(given[input])} where (f(x + h) − f(x − h)) / 2h measures ${seven(measured)}.`;
}

/** A disagreement and whose it is: a switch's, or the learner's, with the tab to fix it in. */
function owned(wrong, context) {
  const switched = switchOf(wrong.op, context.broken);
  const op = context.trainedOps.find((o) => o.op === wrong.op);
  if (switched)
    return [
      `${disagreement(wrong, context)} The “break it” switch “${switched.name}” put that tuple there, not your code: turn it off to train with yours.`,
    ];
  if (!op) return [disagreement(wrong, context)];
  return [`${disagreement(wrong, context)} Fix it in `, ...tabOnPage(op), "."];
}

/** The ops still at their starter tuples, said once, with their tabs. */
export function startersSaid(context) {
  const ops = context.trainedOps.filter((o) => context.starters.includes(o.op) && !switchOf(o.op, context.broken));
  if (!ops.length) return [];
  const them = ops.length > 1 ? "they pass" : "it passes";
  return [
    `Still the starter tuple${ops.length > 1 ? "s" : ""}: `,
    ...tabLinks(ops),
    `, so ${them} no gradient back. Write ${ops.length > 1 ? "them" : "it"} on the Local gradients page, or choose the course’s reference above.`,
  ];
}

/** The disagreements worth saying: a starter's goes without saying (`startersSaid` says it). */
function told(disagree, context) {
  return disagree.filter((wrong) => switchOf(wrong.op, context.broken) || !context.starters.includes(wrong.op));
}

/** Who is to blame: the ops that disagree with a nudge, else the training loop. */
function blame(disagree, context, otherwise = "a learning rate too high for this model does this.") {
  const wrong = told(disagree, context);
  if (wrong.length) return ["The culprit: ", ...wrong.flatMap((w, i) => [...(i ? [" "] : []), ...owned(w, context)])];
  if (context.starters.length) return startersSaid(context);
  const loop = context.broken.map((key) => LOOP[key]).filter(Boolean);
  const why = loop.length ? loop.join(" And ") : otherwise;
  return [`Every op's local gradients agree with a nudge, so the training loop is to blame: ${why}`];
}

/**
 * What the end of a run of `steps` steps says (once it has taken them): how the smoothed loss
 * went (`verdict`, verdict.js's, against a uniform guess's loss `guess`) and, when it failed or
 * leapt, who is to blame (the tuples a nudge disagreed with, `disagree`, else the loop). Parts.
 */
export function endText(verdict, steps, guess, disagree, context) {
  const { kind, start, lowest, peak, peakStep, end, leapt } = verdict;
  const uniform = `a uniform guess's ${guess.toFixed(2)}`;
  const head = `Training finished its ${steps} steps`;
  const leap = leapt ? `, after leaping to ${compact(peak)} at step ${peakStep}` : "";
  if (!failed(verdict) && kind !== "leapt")
    return [`${head}: the smoothed loss fell from ${compact(start)} to ${compact(end)}, below ${uniform}.`];
  const said = {
    "blew-up": `${head} and failed: the smoothed loss blew up, from ${compact(start)} to ${compact(peak)} at step ${peakStep}, and ends at ${compact(end)}, where ${uniform} is.`,
    rose: `${head} and failed: the smoothed loss rose from ${compact(lowest)}, its lowest, to ${compact(end)}${end > guess ? `, above ${uniform}` : ""}.`,
    chance: `${head} and failed: the smoothed loss ends at ${compact(end)}${leap}, ${end >= guess ? "no" : "hardly"} better than ${uniform}.`,
    leapt: `${head}: the smoothed loss ends at ${compact(end)}, below ${uniform}, but on the way it leapt to ${compact(peak)} at step ${peakStep}.`,
  }[kind];
  // a loss that never rose above a uniform guess's and stayed near it: too little training
  const otherwise = kind === "chance" && !leapt ? SHORT : undefined;
  return [`${said} `, ...blame(disagree, context, otherwise)];
}

/**
 * The notice for what a nudge found: `when` is "start" (before the first step) or "worse" (the
 * smoothed loss went above a uniform guess's). Parts; none when there is nothing to say.
 */
export function culpritText(disagree, when, context) {
  if (when === "start") {
    const wrong = told(disagree, context);
    const starters = startersSaid(context);
    const parts = wrong.flatMap((w, i) => [...(i ? [" "] : []), ...owned(w, context)]);
    if (parts.length && !wrong.every((w) => switchOf(w.op, context.broken)))
      parts.push(" Training goes on, so you can watch what a wrong tuple does.");
    return [...parts, ...(parts.length && starters.length ? [" "] : []), ...starters];
  }
  return [
    "The loss is above a uniform guess's: the model does worse than calling every letter equally likely. ",
    ...blame(disagree, context),
  ];
}

/** What ended training, said for the learner (parts), or null when nothing did. */
export function problemText(answer, step, timeLimit, context) {
  if (answer.stopped?.reason === "time")
    return [
      `Training stopped at step ${step}: a request took longer than ${timeLimit} seconds, the time limit. A loop that never ends in a tuple does this.`,
    ];
  if (answer.crashed) return [`Training stopped at step ${step}: Python crashed: ${crashCause(answer.crashed)}.`];
  if (answer.error) return [`Training stopped at step ${answer.step ?? step}: ${answer.error.summary}.`];
  if (!answer.problem) return null;
  const { step: at, raised, disagree, stalled } = answer.problem;
  if (stalled) {
    const starters = startersSaid(context);
    return [
      `Training stopped at step ${at}: no gradient reached any weight, so nothing can learn.`,
      ...(starters.length ? [" ", ...starters] : []),
    ];
  }
  const what = raised ?? "the loss or a gradient stopped being a number (nan or infinity)";
  return [`Training stopped at step ${at}: ${what}. `, ...blame(disagree, context)];
}
