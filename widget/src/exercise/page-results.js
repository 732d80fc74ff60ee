/**
 * The results the page makes itself, shaped like the grader's (grader/result.py): a run that
 * was stopped, and a run whose Python broke. One constructor, so every result has every key.
 */

/** A result with the grader's keys; `verdict` "stopped" or "error". */
export function pageResult({ exercise, verdict, summary, error = null, stdout = "", truncated = false }) {
  return {
    exercise,
    verdict,
    summary,
    checks: [],
    error,
    stubs: [],
    diagnoses: [],
    diagnosis: "",
    culprits: [],
    stdout,
    stdout_truncated: truncated,
  };
}

/** What the learner reads about a stopped run: why, and the line it was on when known. */
export function stoppedResult(exercise, { reason, error }, timeLimit) {
  const where = error ? ` It was running line ${error.line} of your \`${error.label}\` code.` : "";
  const seconds = `${timeLimit} ${timeLimit === 1 ? "second" : "seconds"}`;
  const summary =
    reason === "time"
      ? `Your code was still running after ${seconds}, the time limit.${where} A loop that never ends does this, or far more work than the test needs.`
      : `You pressed Stop.${where}`;
  return pageResult({ exercise, verdict: "stopped", summary, error: error && { ...error, text: "" } });
}

/** What the learner reads when the Python running their code broke rather than failing. */
export function crashedResult(exercise, message) {
  const cause = /call stack|too much recursion/i.test(message)
    ? "your code went too deep: it nested calls (or data that Python walks through, such as a list inside a list thousands of levels deep) beyond what the browser allows"
    : /out of memory|cannot enlarge memory|allocat/i.test(message)
      ? "your code used more memory than the browser allows"
      : `Python failed (${message})`;
  const summary = `Python crashed: ${cause}. The next run gets a fresh Python; your code is kept.`;
  const error = { type: "Crash", message, summary, text: summary };
  return pageResult({ exercise, verdict: "error", summary, error });
}
