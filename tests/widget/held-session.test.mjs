// A session a runner holds (widget/src/python/held-session.js): a training session or a lesson
// page's notebook. Requests one at a time under their time limit; a request past it, or stopped,
// is interrupted where the page can (and the runner kept, with its session), else the runner is
// ended.
import assert from "node:assert/strict";
import { test } from "node:test";
import { heldSession } from "../../widget/src/python/held-session.js";
import { INTERRUPT_GRACE_MS } from "../../widget/src/python/scheduler.js";

/** A runner as python.js hands it over: its port's messages are recorded, `answer` replies. */
function fakeRunner({ interrupt = false } = {}) {
  const runner = {
    posted: [],
    ended: false,
    interrupt: interrupt ? new Uint8Array(1) : null,
    port: { postMessage: (message) => runner.posted.push(message), close() {}, onmessage: null },
    worker: { terminate: () => (runner.ended = true), addEventListener() {} },
    answer: (type, answer) => runner.port.onmessage({ data: { type, answer: JSON.stringify(answer) } }),
  };
  return runner;
}

test("a request is answered with the runner's answer, parsed", async () => {
  const runner = fakeRunner();
  const session = heldSession(runner, 5);
  const asked = session.request("cell-run", { code: "1 + 1" });
  assert.deepEqual(runner.posted, [{ type: "cell-run", code: "1 + 1" }]);
  runner.answer("cell", { output: "2\n", error: null });
  assert.deepEqual(await asked, { output: "2\n", error: null });
  assert.equal(runner.ended, false);
});

test("past its time limit, a request without an interrupt ends the runner", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const runner = fakeRunner();
  const session = heldSession(runner, 5, { interrupt: true });
  const asked = session.request("cell-run", { code: "while True: pass" }, 2);
  t.mock.timers.tick(1999);
  assert.equal(runner.ended, false);
  t.mock.timers.tick(1);
  assert.equal(runner.ended, true);
  assert.ok(session.ended);
  return asked.then((answer) => assert.deepEqual(answer, { stopped: { reason: "time" } }));
});

test("past its time limit, an interruptible request is interrupted and its answer kept with the runner", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const runner = fakeRunner({ interrupt: true });
  const session = heldSession(runner, 5, { interrupt: true });
  const asked = session.request("cell-run", { code: "while True: pass" });
  t.mock.timers.tick(5000);
  assert.equal(runner.interrupt[0], 2); // SIGINT
  const interrupted = { output: "KeyboardInterrupt\n", error: { type: "KeyboardInterrupt", line: 1 } };
  runner.answer("cell", interrupted);
  assert.deepEqual(await asked, { stopped: { reason: "time", answer: interrupted } });
  assert.equal(runner.ended, false);
  // the next request forgets a late interrupt, and runs
  runner.interrupt[0] = 2;
  const next = session.request("cell-run", { code: "1" });
  assert.equal(runner.interrupt[0], 0);
  runner.answer("cell", { output: "1\n", error: null });
  assert.deepEqual(await next, { output: "1\n", error: null });
});

test("an interrupted request that does not answer in its grace ends the runner", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const runner = fakeRunner({ interrupt: true });
  const session = heldSession(runner, 5, { interrupt: true });
  const asked = session.request("cell-run", { code: "sum(range(10**12))" });
  session.stop();
  assert.equal(runner.interrupt[0], 2);
  t.mock.timers.tick(INTERRUPT_GRACE_MS);
  assert.deepEqual(await asked, { stopped: { reason: "stop" } });
  assert.equal(runner.ended, true);
  assert.deepEqual(await session.request("cell-run", { code: "1" }), { crashed: "the session has ended" });
});

test("a training session (not interruptible) ends its runner at Stop, as before", async () => {
  const runner = fakeRunner({ interrupt: true });
  const session = heldSession(runner, 5);
  const asked = session.request("train-steps", { count: 10 });
  session.stop();
  assert.deepEqual(await asked, { stopped: { reason: "stop" } });
  assert.equal(runner.ended, true);
  assert.equal(runner.interrupt[0], 0);
});

test("a crashed runner's request says so", async () => {
  const runner = fakeRunner();
  const session = heldSession(runner, 5);
  const asked = session.request("cell-graph", { expr: "L" });
  runner.port.onmessage({ data: { type: "crashed", message: "Python broke" } });
  assert.deepEqual(await asked, { crashed: "Python broke" });
});

test("an answer that is no object (learner code took the reply over) is a crash, never a hang", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const runner = fakeRunner({ interrupt: true });
  const session = heldSession(runner, 5, { interrupt: true });
  const asked = session.request("cell-graph", { expr: "L" });
  t.mock.timers.tick(5000); // interrupted, and the reply that comes is no answer: a crash
  runner.port.onmessage({ data: { type: "cell", answer: "null" } });
  assert.deepEqual(await asked, { crashed: "the session sent back something that is not its answer" });
});
