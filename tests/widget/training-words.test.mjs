// The training widget's words: why training stopped by itself, in words with the session's own
// numbers, and a closure at fault named with a link to its tab on the Write the closures page.
import assert from "node:assert/strict";
import { test } from "node:test";
import { finishedText, problemOf } from "../../widget/src/training/words.js";
import { hashTab } from "../../widget/src/exercise/model.js";
import { text } from "../../widget/src/exercise/where.js";

// training/session.py's Config, as course/widget_data.py hands it to the widget
const CONFIG = { step_limit: 500, window: 50, settled: 0.01 };
const OPS = ["add", "mul", "relu"].map((op) => ({
  op,
  design: "closures",
  exercise: op,
  label: { add: "__add__", mul: "__mul__" }[op] ?? op,
}));
const tabs = (parts) =>
  parts.filter((part) => part.href?.includes("#")).map((part) => hashTab(new URL(part.href).hash));

test("stopping by itself is said in words, with how to go on", () => {
  const fit = { kind: "fit", start: 0.45, lowest: 0.012, peak: 0.2, peakStep: 50, end: 0.012, leapt: false };
  const end = { step: 212, config: CONFIG, verdict: fit, accuracy: 1, chance: 0.5, points: 100 };
  assert.equal(
    finishedText({ ...end, finished: "converged" }),
    "Training stopped by itself at step 212: the loss has stopped falling (its mean over the last 50 steps is less than 1% below its mean over the 50 before), so more steps would change little, and every point is on its side. Train goes on from here, for up to 500 more steps.",
  );
  assert.match(
    finishedText({ ...end, finished: "limit", step: 1000, accuracy: 0.99 }),
    /^Training stopped by itself at step 1000: 500 steps since it started or last went on is its limit, and 1 of the 100 points is still on the wrong side\. Train goes on/,
  );
});

test("a closure that makes nan is linked to its tab on the closures page", () => {
  const parts = problemOf({ problem: { step: 3, op: "relu" } }, 3, 10, {
    trainedOps: OPS,
    starters: [],
    assignAdd: false,
  });
  assert.match(
    text(parts),
    /^Training stopped at step 3: the relu closure .* Look at what it adds, in the relu tab on the Write the closures page\.$/,
  );
  assert.deepEqual(tabs(parts), ["relu"]);
});

test("the break-it switch, not the learner, is named when it is on in the closure at fault", () => {
  const parts = problemOf({ problem: { step: 3, op: "add" } }, 3, 10, {
    trainedOps: OPS,
    starters: [],
    assignAdd: true,
  });
  assert.match(text(parts), /The “break it” switch put = in place of \+= in it: turn the switch off/);
});

test("the starter closures are linked where training stalls", () => {
  const parts = problemOf({ problem: { step: 1, op: null, stalled: true } }, 1, 10, {
    trainedOps: OPS,
    starters: OPS,
    assignAdd: false,
  });
  assert.match(
    text(parts),
    /no gradient reached any weight or bias, so nothing can learn\. Still the starter code: __add__, __mul__, relu, on the Write the closures page\.$/,
  );
  assert.deepEqual(tabs(parts), ["add", "mul", "relu"]);
});

test("a crash stops training in the learner's terms, never Pyodide's", () => {
  const [said] = problemOf({ crashed: "Program terminated with exit(0)" }, 7, 10, {
    trainedOps: OPS,
    starters: [],
    assignAdd: false,
  });
  assert.match(said, /^Training stopped at step 7: Python crashed: your code ended Python itself/);
  assert.doesNotMatch(said, /terminated with/);
});

test("a request past the time limit is said with the limit and what does it", () => {
  const [said] = problemOf({ stopped: { reason: "time" } }, 12, 5, { trainedOps: OPS, starters: [], assignAdd: false });
  assert.match(said, /^Training stopped at step 12: a few steps took longer than 5 seconds, the time limit\./);
  assert.equal(
    problemOf({ stopped: { reason: "stop" } }, 12, 5, { trainedOps: OPS, starters: [], assignAdd: false }),
    null,
  );
});
