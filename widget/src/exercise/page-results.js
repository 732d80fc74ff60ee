/**
 * The results the page makes itself, shaped like the grader's (grader/result.py): a run that
 * was stopped, and a run whose Python broke. One constructor, so every result has every key.
 */

/** A result with the grader's keys; `verdict` "stopped" or "error". */
export function pageResult({ exercise, verdict, summary, error = null }) {
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
    stdout: "",
    stdout_truncated: false,
    stdout_lines: 0,
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

// why a Python broke, from what Pyodide or the browser said, in the learner's terms
const CRASHES = [
  [
    /call stack|too much recursion/i,
    "your code went too deep: it nested calls (or data that Python walks through, such as a list inside a list thousands of levels deep) beyond what the browser allows",
  ],
  [/out of memory|cannot enlarge memory|allocat/i, "your code used more memory than the browser allows"],
  [
    /program terminated with exit|exit\(-?\d+\)/i,
    "your code ended Python itself (`os._exit`, or something like it): a closure only adds to the inputs' grads",
  ],
  [/fatal error|abort/i, "your code made Python abort on purpose (as `os.abort` or `faulthandler` do)"],
];

/** Why the Python running the learner's code broke, said for them: never Pyodide's or the
 * runner's own words, which stay in `message`. */
export function crashCause(message) {
  const known = CRASHES.find(([pattern]) => pattern.test(message));
  return known
    ? known[1]
    : "your code broke the Python that ran it, reaching into Python's or the course's own machinery";
}

/** What the learner reads when the Python running their code broke rather than failing. */
export function crashedResult(exercise, message) {
  const summary = `Python crashed: ${crashCause(message)}. The next run gets a fresh Python; your code is kept.`;
  const error = { type: "Crash", message, summary, text: summary };
  return pageResult({ exercise, verdict: "error", summary, error });
}
