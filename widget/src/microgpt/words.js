/**
 * What the microgpt widget says when training goes wrong, and whom it blames: an op whose
 * local gradients a nudge disagrees with (microgpt/culprit.py), or the training loop.
 */

const INPUTS = { add: ["self", "other"], mul: ["self", "other"] }; // the rest have one: x
const LABELS = { add: "__add__", mul: "__mul__", pow: "__pow__" };
const LOOP = {
  no_zero_grad:
    "p.grad is never set back to 0, so each step follows the sum of every gradient so far, and the steps grow until the model's probabilities reach 0 or 1.",
  rate_too_high:
    "the learning rate is 10 times microgpt's, so Adam's steps overshoot: the loss leaps up and settles only as the rate decays.",
};

const seven = (value) => (typeof value === "number" ? value.toFixed(7) : String(value));

/** One op's disagreement, said: `{op, inputs, given, measured, input}` from the runner. */
export function disagreement({ op, inputs, given, measured, input }) {
  const names = INPUTS[op] ?? ["x"];
  const label = LABELS[op] ?? op;
  const at = inputs.map((value, i) => `${names[i]} = ${seven(value)}`).join(", ");
  if (measured === null)
    return `${label}'s tuple has ${given.length} local gradients, where ${label} has ${inputs.length} input${inputs.length > 1 ? "s" : ""}.`;
  const which = names.length > 1 ? ` for ${names[input]}` : "";
  return `${label}'s local gradient${which} disagrees with a nudge: at ${at}, the tuple gives ${seven(given[input])} where (f(x + h) − f(x − h)) / 2h measures ${seven(measured)}.`;
}

/** Who is to blame: the ops that disagree with a nudge, else the training loop (`broken` are
 * the break-it switches turned on). */
function blame(disagree, broken) {
  if (disagree.length) return `The culprit: ${disagree.map(disagreement).join(" ")}`;
  const loop = broken.map((key) => LOOP[key]).filter(Boolean);
  const why = loop.length ? loop.join(" And ") : "a learning rate too high for this model does this.";
  return `Every op's local gradients agree with a nudge, so the training loop is to blame: ${why}`;
}

/**
 * The notice for what a nudge found: `when` is "start" (before the first step) or "worse" (the
 * smoothed loss went above a uniform guess's).
 */
export function culpritText(disagree, when, broken = []) {
  if (when === "start")
    return `${disagree.map(disagreement).join(" ")} Training goes on, so you can watch what a wrong tuple does; its tab on the exercise page is where to fix it.`;
  return `The loss is above a uniform guess's: the model does worse than calling every letter equally likely. ${blame(disagree, broken)}`;
}

/** What ended training, said for the learner, or null when nothing did. */
export function problemText(answer, step, timeLimit, broken) {
  if (answer.stopped === "time")
    return `Training stopped at step ${step}: a request took longer than ${timeLimit} seconds, the time limit. A loop that never ends in a tuple does this.`;
  if (answer.crashed) return `Training stopped at step ${step}: Python crashed (${answer.crashed}).`;
  if (answer.error) return `Training stopped at step ${answer.step ?? step}: ${answer.error.summary}.`;
  if (!answer.problem) return null;
  const { step: at, error, disagree } = answer.problem;
  const what = error ?? "the loss or a gradient stopped being a number (nan or infinity)";
  return `Training stopped at step ${at}: ${what}. ${blame(disagree, broken)}`;
}
