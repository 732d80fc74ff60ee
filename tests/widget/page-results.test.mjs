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
  assert.match(crashedResult("mul", "memory access out of bounds").summary, /Python failed/);
  assert.match(crashedResult("mul", "boom").summary, /Python failed \(boom\)/);
  assert.equal(crashedResult("mul", "boom").verdict, "error");
});

test("every result has the same keys", () => {
  const keys = Object.keys(pageResult({ exercise: "x", verdict: "error", summary: "" })).sort();
  assert.deepEqual(Object.keys(stoppedResult("x", { reason: "stop", error: null }, 5)).sort(), keys);
  assert.deepEqual(Object.keys(crashedResult("x", "m")).sort(), keys);
});
