// The loss axis stays legible for any loss: every tick label is short.
import assert from "node:assert/strict";
import { test } from "node:test";
import { compact, compactTicks } from "../../widget/src/plots/ticks.js";

test("tick labels stay short from a ten-thousandth to a blown-up loss", () => {
  assert.deepEqual([0.6349, 12.5, 100, 0.0003, 30000, 1.9e17, 0].map(compact), [
    "0.635",
    "12.5",
    "100",
    "3e-4",
    "3e+4",
    "1.9e+17",
    "0",
  ]);
  for (const value of [1e-9, 123456789, 9.87e30, -2.5e8]) assert.ok(compact(value).length <= 8, compact(value));
});

test("a log axis over many powers of ten labels a few of them, and nothing between", () => {
  const ticks = [];
  for (let e = -1; e <= 17; e++) for (const m of [1, 2, 5]) ticks.push(m * 10 ** e);
  const labels = compactTicks(null, ticks).filter(Boolean);
  assert.ok(labels.length <= 7, labels);
  assert.ok(
    labels.every((label) => /^1e[+-]\d+$|^1$|^0\.1$|^10{1,3}$/.test(label)),
    labels,
  );
  assert.deepEqual(compactTicks(null, [0.5, 1, 2, 5]), ["0.5", "1", "2", "5"]);
});

test("the ticks uPlot leaves unlabelled (null) get no label, not 'null'", () => {
  assert.deepEqual(compactTicks(null, [1, 2, null, null, 5, 10]), ["1", "2", "", "", "5", "10"]);
  const wide = compactTicks(null, [0.01, null, 1, null, 100, 1000]);
  assert.ok(!wide.includes("null"));
  assert.deepEqual(wide.filter(Boolean), ["0.01", "1", "100", "1000"]);
});
