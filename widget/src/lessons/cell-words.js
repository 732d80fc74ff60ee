/**
 * What a lesson block says after it ran (cells.js), in the learner's terms. Pure.
 */
import { saidFirst } from "./notebook.js";

/** What a run that answered says: the blocks run first (for the block asked for), its error at
 * its line, and whether its output was cut. `first` lists the blocks run before it, or null
 * for a block run on the way. */
export function ranWords(ran, first = null) {
  const parts = [];
  const before = first?.length ? saidFirst(first) : "";
  if (before) parts.push(`${before[0].toUpperCase()}${before.slice(1)}.`);
  const error = ran?.error;
  if (error) {
    const where = error.line ? `Line ${error.line} of this block raised` : "This block raised";
    parts.push(`${where} ${error.type}: ${error.message}`);
  }
  if (ran?.truncated)
    parts.push(`The output was cut: the block printed ${ran.printed_lines} lines, and only the first are shown.`);
  return parts.join(" ");
}

/** What a run that did not answer as usual says: stopped (by Stop or the time limit), crashed,
 * or no Python. */
export function stoppedWords(answer, timeLimit) {
  if (answer.failed) return `Python is not available: ${answer.failed}`;
  if (answer.crashed) return `Python broke (${answer.crashed}); it was restarted, and the next Run starts afresh.`;
  const { reason, answer: ran } = answer.stopped;
  const line = ran?.error?.line;
  const at = line ? ` at line ${line}` : "";
  const why =
    reason === "time"
      ? `Stopped after ${timeLimit} s, the time limit${at && `,${at}`}: does a loop never end?`
      : `Stopped${at}.`;
  const after = ran
    ? "The session is kept: the blocks below may be out of date."
    : "Python was restarted: the next Run runs the blocks above again first.";
  return `${why} ${after}`;
}
