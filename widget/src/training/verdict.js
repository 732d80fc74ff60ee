/**
 * How a run of training went, judged from its own figures alone: the loss at each step and,
 * where the task has one, the accuracy against a coin toss's. Both trainers (the moons',
 * training.js, and microgpt's) ask it when a run ends, and say what it found in words of their
 * own (widget/src/training/words.js, widget/src/microgpt/words.js), so that a run that broke
 * never reads as one that has simply stopped falling. Pure: tests/widget/verdict.test.mjs
 * judges recorded runs.
 */

export const BLEW_UP = 1000; // a loss this many times where it started has blown up
export const RISE = 0.1; // a climb from its lowest of this share of the start is a rise
export const NEAR_CHANCE = 0.1; // an accuracy this close to a coin toss's is no fit
export const NEAR_GUESS = 0.05; // a loss within this share of a know-nothing guess's is none
export const LEAP = 0.2; // a loss this share above where it started, or the guess, has leapt

/** The mean of each `window` steps in a row (all of them, when fewer), steps not a number left
 * out: a noisy loss (one batch's) judged by its trend, not by one lucky or unlucky batch. */
export function smoothed(losses, window) {
  const means = [];
  for (let i = Math.min(window, losses.length); i <= losses.length; i++) {
    const last = losses.slice(Math.max(0, i - window), i).filter(Number.isFinite);
    means.push(last.length ? last.reduce((sum, loss) => sum + loss, 0) / last.length : null);
  }
  return means;
}

/**
 * The verdict on a run: `losses` are its steps' (null where not a number), averaged over
 * `window` steps (1: already smoothed); `guess` is the loss of a model that knows nothing (a
 * uniform guess's); `accuracy` and `chance` (a coin toss's: the largest class's share), where
 * the task has them. `{kind, start, lowest, peak, peakStep, end, leapt}`, kind the first that
 * holds of:
 * - "blew-up": its mean rose to BLEW_UP times where it started, or the guess, or more
 * - "rose": it ends above its lowest by RISE of where it started (or the guess) or more
 * - "chance": the accuracy is within NEAR_CHANCE of a coin toss's; without one, the loss ends
 *   within NEAR_GUESS of the guess's, or above it
 * - "leapt": its mean went above where it started (or the guess) by LEAP, and came back down
 * - "fit": none of these, the loss fell and stayed down
 * and `leapt` says whether it went so high at some step, whatever its kind. Means are over
 * `window` steps in a row (`smoothed`): `peakStep` is the last step of the peak's.
 */
export function verdict({ losses, window = 1, guess, accuracy = null, chance = null }) {
  const means = smoothed(losses, window);
  const known = means.filter((mean) => mean !== null);
  const start = losses.find(Number.isFinite) ?? null;
  if (start === null) return { kind: "none", start };
  const scale = Math.max(start, guess);
  const [lowest, peak, end] = [Math.min(...known), Math.max(...known), known.at(-1)];
  const peakStep = means.indexOf(peak) + Math.min(window, losses.length); // its window's last
  const leapt = peak > scale * (1 + LEAP);
  const figures = { start, lowest, peak, peakStep, end, leapt };
  const noFit = accuracy === null ? end >= guess * (1 - NEAR_GUESS) : accuracy <= chance + NEAR_CHANCE;
  let kind = "fit";
  if (peak >= BLEW_UP * scale) kind = "blew-up";
  else if (end - lowest >= RISE * scale) kind = "rose";
  else if (noFit) kind = "chance";
  else if (leapt) kind = "leapt";
  return { kind, ...figures };
}

/** Whether a verdict says the run failed: its loss blew up or rose, or it fits no better than
 * chance. A run that leapt and came back down has not (its words say the leap). */
export const failed = ({ kind }) => ["blew-up", "rose", "chance"].includes(kind);
