// The results the page makes itself have the grader's shape and say what happened.
import assert from "node:assert/strict";
import { test } from "node:test";
import { crashedResult, pageResult, stoppedResult } from "../../widget/src/exercise/page-results.js";

test("a stop at the time limit says so, and where the code was when known", () => {
  const error = { type: "KeyboardInterrupt", line: 3, label: "__mul__", text: "…" };
  const result = stoppedResult("mul", { reason: "time", error }, 5);
  assert.equal(result.verdict, "stopped");
  assert.match(result.summary, /still running after 5 seconds.*line 3 of your `__mul__` code/);
  assert.equal(result.error.text, "");
  assert.match(stoppedResult("mul", { reason: "stop", error: null }, 1).summary, /^You pressed Stop\.$/);
  assert.match(stoppedResult("mul", { reason: "time", error: null }, 1).summary, /after 1 second,/);
});

test("a crash names its cause in the learner's terms", () => {
  assert.match(crashedResult("mul", "Maximum call stack size exceeded").summary, /went too deep/);
  assert.match(crashedResult("mul", "Out of memory").summary, /more memory/);
  assert.match(crashedResult("mul", "Program terminated with exit(0)").summary, /ended Python itself/);
  assert.match(crashedResult("mul", "Fatal Python error: (intentionally triggered fatal error!)").summary, /abort/);
  assert.equal(crashedResult("mul", "boom").verdict, "error");
});

test("a crash never shows Pyodide's or the runner's own words", () => {
  const traceback = 'Traceback (most recent call last):\n  File "runner/observe.py", line 51, in observe\nboom';
  for (const message of [traceback, "memory access out of bounds", "Program terminated with exit(0)"]) {
    const { summary, error } = crashedResult("mul", message);
    for (const text of [summary, error.text]) {
      assert.doesNotMatch(text, /runner\/observe|Traceback|terminated with|out of bounds/);
    }
    assert.equal(error.message, message); // kept for whoever debugs it, never shown
  }
});

test("every result has the same keys", () => {
  const keys = Object.keys(pageResult({ exercise: "x", verdict: "error", summary: "" })).sort();
  assert.deepEqual(Object.keys(stoppedResult("x", { reason: "stop", error: null }, 5)).sort(), keys);
  assert.deepEqual(Object.keys(crashedResult("x", "m")).sort(), keys);
});
