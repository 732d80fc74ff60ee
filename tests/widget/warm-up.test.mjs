// The worker's warm-up while idle, on a clock and timers of the test's own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MOST_CALLS, NO_FASTER, QUIET_MS, warmWhileIdle } from "../../widget/src/worker/warm-up.js";

/** A worker's time: `later` queues, `tick()` runs the next timer (the clock moves to it). */
function worker({ untilFirstRequest = false, callMs = () => 10 } = {}) {
  const w = { clock: 0, timers: [], calls: 0, heard: null, warm: [] };
  w.warmUp = () => {
    w.clock += callMs(w.calls);
    w.calls += 1;
  };
  w.start = () =>
    warmWhileIdle(w.warmUp, {
      lastRequest: () => w.heard,
      untilFirstRequest,
      warm: () => w.warm.push(w.calls),
      now: () => w.clock,
      later: (then, ms) => w.timers.push({ at: w.clock + ms, then }),
    });
  w.tick = () => {
    w.timers.sort((a, b) => a.at - b.at);
    const timer = w.timers.shift();
    if (!timer) return false;
    w.clock = Math.max(w.clock, timer.at);
    timer.then();
    return true;
  };
  w.runOut = () => {
    while (w.tick());
  };
  return w;
}

test("nothing is called before the page has been quiet for QUIET_MS", () => {
  const w = worker();
  w.start();
  w.clock = QUIET_MS - 1;
  w.heard = QUIET_MS - 100; // a request just came
  w.tick();
  assert.equal(w.calls, 0);
  assert.equal(w.timers[0].at, w.heard + QUIET_MS); // tried again once quiet
  w.tick();
  assert.equal(w.calls, 1);
});

test("calls stop once NO_FASTER in a row are no faster than the best; then it is warm", () => {
  const w = worker({ callMs: (i) => [40, 30, 20, 10][i] ?? 10 });
  w.start();
  w.runOut();
  assert.equal(w.calls, 4 + NO_FASTER);
  assert.deepEqual(w.warm, [4 + NO_FASTER]); // once, after the last call
});

test("calls that keep getting faster stop at MOST_CALLS; then it is warm", () => {
  const w = worker({ callMs: (i) => 1000 * 0.8 ** i });
  w.start();
  w.runOut();
  assert.equal(w.calls, MOST_CALLS);
  assert.deepEqual(w.warm, [MOST_CALLS]);
});

test("a runner stops for good at its first request; a judge waits and goes on", () => {
  for (const untilFirstRequest of [true, false]) {
    const w = worker({ untilFirstRequest, callMs: (i) => 1000 * 0.8 ** i });
    w.start();
    w.tick();
    w.tick();
    assert.equal(w.calls, 2);
    w.heard = w.clock; // the page asks: a run, or a verdict to judge
    w.runOut();
    assert.equal(w.calls, untilFirstRequest ? 2 : MOST_CALLS);
    assert.deepEqual(w.warm, untilFirstRequest ? [] : [MOST_CALLS]);
  }
});

test("a warm-up that throws ends the warm-up, not the worker", () => {
  const w = worker();
  w.warmUp = () => {
    w.calls += 1;
    throw new Error("KeyboardInterrupt");
  };
  w.start();
  assert.doesNotThrow(() => w.runOut());
  assert.equal(w.calls, 1);
  assert.deepEqual(w.warm, []);
});
