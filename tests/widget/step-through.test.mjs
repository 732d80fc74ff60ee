// The step-through's words before its first step: the grads backward() began with, how many
// steps follow, and, when the learner's code made more than the runner keeps, that it did.
import assert from "node:assert/strict";
import { test } from "node:test";
import { beforeText } from "../../widget/src/exercise/graph-view.js";

// out = x * y, as grader/present.py's Check gives it: out.grad seeded, every other grad 0
const check = (dropped) => ({
  nodes: [
    { id: 0, name: "x" },
    { id: 1, name: "y" },
    { id: 2, name: "out" },
  ],
  start: ["0.0000000", "0.0000000", "0.5000000"],
  steps_dropped: dropped,
});

test("before the first step: the seeded grads and the steps that follow", () => {
  assert.equal(
    beforeText(check(false), 1),
    "Before the first step: out.grad is 0.5000, every other grad 0. One step follows.",
  );
  assert.equal(
    beforeText(check(false), 3),
    "Before the first step: out.grad is 0.5000, every other grad 0. 3 steps follow.",
  );
});

test("a run of more steps than the step-through keeps is told so", () => {
  assert.equal(
    beforeText(check(true), 200),
    "Before the first step: out.grad is 0.5000, every other grad 0. 200 steps follow. Your code made more steps than the step-through keeps: these are its first.",
  );
});
