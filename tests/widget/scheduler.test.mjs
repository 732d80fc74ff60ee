// The page's Python as a state machine (widget/src/python/scheduler.js), driven by hand: each race
// the site tests have met, as the events that make it, with workers that are only numbers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { describe, initialState, INTERRUPT_GRACE_MS, step } from "../../widget/src/python/scheduler.js";
import { MAX_OBSERVATION } from "../../widget/src/python/limits.js";

const JUDGE = 1;
const FIRST_RUNNER = 2;
const KEYBOARD_INTERRUPT = JSON.stringify({ error: { type: "KeyboardInterrupt", slot: "mul", line: 2 } });

/** A page's Python fed events in order; `actions` holds what the last event asked for. */
class Page {
  state = initialState();
  actions = [];
  now = 0;

  send(event) {
    this.now += 10;
    ({ state: this.state, actions: this.actions } = step(this.state, { at: this.now, ...event }));
    return this.actions;
  }

  from(worker, data) {
    return this.send({ type: "message", worker, data });
  }

  did(kind, fields = {}) {
    return this.actions.filter((a) => a.do === kind && Object.entries(fields).every(([k, v]) => a[k] === v));
  }

  /** Started, with the judge and the first spare ready. */
  static ready({ isolated = false } = {}) {
    const page = new Page();
    page.send({ type: "start", isolated });
    page.from(JUDGE, { type: "ready", ms: 900, restored: "judge" });
    page.from(FIRST_RUNNER, { type: "ready", ms: 800, restored: "runner" });
    return page;
  }

  /** The id of the runner the last event spawned. */
  get spawned() {
    return this.did("spawn", { role: "runner" }).at(-1)?.worker;
  }

  /** Runs job `job` to its verdict on the ready spare, through the paint that ends its runner. */
  verdict(job, result = '{"verdict": "pass"}') {
    const runner = this.state.spare.id;
    this.send({ type: "grade", job, exercise: "mul", bodies: { mul: "pass" }, limitMs: 5000 });
    this.from(runner, { type: "observed", observation: "{}" });
    const request = this.did("post", { worker: JUDGE })[0].message.id;
    this.from(JUDGE, { type: "judged", id: request, result });
    this.send({ type: "painted" });
    return runner;
  }
}

test("it starts a judge and a runner, and is ready once both are", () => {
  const page = new Page();
  page.send({ type: "start", isolated: false });
  assert.deepEqual(
    page.did("spawn").map((a) => a.role),
    ["judge", "runner"],
  );
  assert.equal(page.state.status.state, "loading");
  page.from(JUDGE, { type: "progress", loaded: 5, total: 10, sent: 8 });
  assert.deepEqual(page.state.status, { state: "loading", loaded: 5, total: 10, sent: 8 });
  const judgePhases = { files: 300, read: 320, python: 700, warm: 880, ready: 890 };
  page.from(JUDGE, { type: "ready", ms: 900, restored: "judge", phases: judgePhases });
  assert.equal(page.state.status.state, "loading");
  const runnerPhases = { files: 310, python: 600, warm: 650, ready: 690 };
  page.from(FIRST_RUNNER, { type: "ready", ms: 700, restored: null, phases: runnerPhases });
  assert.deepEqual(page.state.status, { state: "ready", ms: 900 });
  assert.deepEqual(page.did("mark")[0].detail, {
    restored: false,
    judgeRestored: true,
    judgeMemory: "judge",
    phases: { judge: judgePhases, runner: runnerPhases },
  });
  assert.equal(page.did("clear-timer", { key: "silence" }).length, 1);
  assert.deepEqual(describe(page.state), { state: "ready", settled: true });
});

test("a page that only holds sessions starts a runner alone, is ready with it and hands it over", () => {
  const page = new Page();
  page.send({ type: "start", isolated: false, judge: false });
  assert.deepEqual(
    page.did("spawn").map((a) => [a.worker, a.role]),
    [[1, "runner"]],
  );
  page.from(1, { type: "progress", loaded: 5, total: 10, sent: 8 });
  assert.deepEqual(page.state.status, { state: "loading", loaded: 5, total: 10, sent: 8 });
  const phases = { files: 310, python: 600, warm: 650, ready: 690 };
  page.from(1, { type: "ready", ms: 700, restored: "runner", phases });
  assert.deepEqual(page.state.status, { state: "ready", ms: 700 });
  assert.deepEqual(page.did("mark")[0].detail, {
    restored: true,
    judgeRestored: false,
    judgeMemory: null,
    phases: { judge: null, runner: phases },
  });
  assert.deepEqual(describe(page.state), { state: "ready", settled: true });
  page.send({ type: "hold", holder: 9 });
  assert.equal(page.did("hand-over", { worker: 1, holder: 9 }).length, 1);
  assert.deepEqual(
    page.did("spawn").map((a) => a.role),
    ["runner"],
  );
});

test("on a page without a judge, the first run starts it and the verdict is its", () => {
  const page = new Page();
  page.send({ type: "start", judge: false });
  page.from(1, { type: "ready", ms: 700 });
  page.send({ type: "grade", job: 7, exercise: "mul", bodies: { mul: "x" }, limitMs: 5000 });
  const judge = page.did("spawn", { role: "judge" })[0].worker;
  assert.equal(page.did("post", { worker: 1 }).length, 1, "the run need not wait for the judge");
  assert.deepEqual(describe(page.state), { state: "ready", settled: false });
  page.from(1, { type: "observed", observation: "{}" });
  const request = page.did("post", { worker: judge })[0].message.id;
  page.from(judge, { type: "ready", ms: 900 });
  page.from(judge, { type: "judged", id: request, result: '{"verdict": "pass"}' });
  assert.deepEqual(page.did("settle")[0].outcome, { result: { verdict: "pass" } });
  page.send({ type: "need-judge" });
  assert.equal(page.did("spawn").length, 0, "one judge");
  page.send({ type: "restart" });
  assert.deepEqual(
    page
      .did("spawn")
      .map((a) => a.role)
      .sort(),
    ["judge", "runner"],
  );
});

test("a later widget that grades, or a check of the whole engine, starts the judge", () => {
  const page = new Page();
  page.send({ type: "start", judge: false });
  page.send({ type: "need-judge" });
  assert.equal(page.did("spawn", { role: "judge" }).length, 1);
  const checking = new Page();
  checking.send({ type: "start", judge: false });
  checking.from(1, { type: "ready", ms: 700 });
  checking.send({ type: "fuzz", job: 3, design: "closures", bodies: {}, count: 5, seed: 1, limitMs: 5000 });
  const judge = checking.did("spawn", { role: "judge" })[0].worker;
  assert.equal(checking.did("post", { worker: judge })[0].message.type, "fuzz-begin");
  const failed = new Page();
  failed.send({ type: "start", judge: false, missing: "module workers" });
  failed.send({ type: "need-judge" });
  assert.equal(failed.did("spawn").length, 0, "a failed Python starts nothing");
});

test("a judge asked for while a judge-less page loads: its progress is not the status's, Python waits for it", () => {
  const page = new Page();
  page.send({ type: "start", judge: false });
  page.from(1, { type: "progress", loaded: 8, total: 10, sent: 8 });
  page.send({ type: "need-judge" });
  const judge = page.did("spawn", { role: "judge" })[0].worker;
  page.from(judge, { type: "progress", loaded: 1, total: 12, sent: 1 });
  assert.deepEqual(page.state.status, { state: "loading", loaded: 8, total: 10, sent: 8 });
  page.from(1, { type: "ready", ms: 700 });
  assert.equal(page.state.status.state, "loading", "the judge is not ready yet");
  page.from(judge, { type: "ready", ms: 900 });
  assert.deepEqual(page.state.status, { state: "ready", ms: 900 });
});

test("a judge started once Python is ready is watched for silence until it is ready, and said to load", () => {
  const page = new Page();
  page.send({ type: "start", judge: false });
  page.from(1, { type: "ready", ms: 700 });
  page.send({ type: "need-judge" });
  assert.equal(page.did("timer", { key: "silence" }).length, 1);
  assert.deepEqual(describe(page.state), { state: "ready", settled: false });
  assert.deepEqual(page.did("status")[0].status, { state: "ready", ms: 700, grader: "loading" });
  const judge = page.did("spawn", { role: "judge" })[0].worker;
  page.from(judge, { type: "ready", ms: 900 });
  assert.equal(page.did("clear-timer", { key: "silence" }).length, 1);
  assert.deepEqual(describe(page.state), { state: "ready", settled: true });
  assert.deepEqual(page.state.status, { state: "ready", ms: 700 });
  const silent = new Page();
  silent.send({ type: "start", judge: false });
  silent.from(1, { type: "ready", ms: 700 });
  silent.send({ type: "need-judge" });
  silent.send({ type: "silent" });
  assert.equal(silent.state.status.state, "failed");
  const never = new Page();
  never.send({ type: "start", judge: false });
  never.send({ type: "restart" });
  assert.deepEqual(
    never.did("spawn").map((a) => a.role),
    ["runner"],
    "a restart of a page that never graded starts no judge",
  );
});

test("without a judge, the first spare's WebAssembly is kept for later workers, sent before it was ready", () => {
  const page = new Page();
  page.send({ type: "start", judge: false });
  const module = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  page.from(1, { type: "compiled", module });
  assert.equal(page.did("keep-wasm").length, 1);
  page.from(1, { type: "ready", ms: 700 });
  page.send({ type: "hold", holder: 5 });
  assert.deepEqual(
    page.did("spawn").map((a) => [a.role, a.wasm]),
    [["runner", true]],
  );
  const late = new Page();
  late.send({ type: "start", judge: false });
  late.from(1, { type: "ready", ms: 700 });
  late.from(1, { type: "compiled", module });
  assert.equal(late.did("keep-wasm").length, 0, "a ready runner may have run learner code");
});

test("a second start does nothing, and a browser without what Python needs fails with its name", () => {
  const page = Page.ready();
  assert.deepEqual(page.send({ type: "start" }), []);
  const bare = new Page();
  bare.send({ type: "start", missing: "module workers" });
  assert.equal(bare.state.status.state, "failed");
  assert.match(bare.state.status.message, /no module workers/);
  assert.equal(bare.did("spawn").length, 0);
});

test("a run waits for Python, then goes to the spare; the judge gets the report", () => {
  const page = new Page();
  page.send({ type: "start" });
  page.send({ type: "grade", job: 7, exercise: "mul", bodies: { mul: "x" }, limitMs: 5000 });
  assert.equal(page.did("post").length, 0);
  page.from(JUDGE, { type: "ready" });
  assert.equal(page.did("post").length, 0);
  page.from(FIRST_RUNNER, { type: "ready" });
  assert.deepEqual(page.did("post")[0], {
    do: "post",
    worker: FIRST_RUNNER,
    message: { type: "run", exercise: "mul", bodies: { mul: "x" } },
  });
  assert.equal(page.did("timer", { key: "run" })[0].ms, 5000);
  page.from(FIRST_RUNNER, { type: "observed", observation: "{}" });
  assert.equal(page.did("close", { worker: FIRST_RUNNER }).length, 1);
  assert.equal(page.did("end").length, 0, "its runner is ended once the verdict is painted");
  const [judging] = page.did("post", { worker: JUDGE });
  assert.equal(judging.message.observation, "{}");
  page.from(JUDGE, { type: "judged", id: judging.message.id, result: '{"verdict": "fail"}' });
  assert.deepEqual(page.did("settle")[0], { do: "settle", job: 7, outcome: { result: { verdict: "fail" } } });
  assert.equal(page.did("after-paint").length, 1);
  assert.equal(page.did("measure", { name: "python-run" }).length, 1);
  assert.equal(describe(page.state).settled, false);
  page.send({ type: "painted" });
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1);
  const spare = page.spawned;
  assert.ok(spare > FIRST_RUNNER);
  assert.equal(describe(page.state).settled, false, "the next spare is still loading");
  page.from(spare, { type: "ready" });
  assert.equal(describe(page.state).settled, true);
});

test("a run does not wait for a judge still loading: the report does, and Python is ready with it", () => {
  const page = new Page();
  page.send({ type: "start" });
  page.send({ type: "grade", job: 7, exercise: "mul", bodies: { mul: "x" }, limitMs: 5000 });
  page.from(FIRST_RUNNER, { type: "ready" });
  assert.equal(page.did("post", { worker: FIRST_RUNNER })[0].message.type, "run");
  assert.equal(page.state.status.state, "loading");
  page.from(FIRST_RUNNER, { type: "observed", observation: "{}" });
  const [judging] = page.did("post", { worker: JUDGE }); // queued in the judge's port
  assert.equal(judging.message.type, "judge");
  page.from(JUDGE, { type: "ready" });
  assert.equal(page.state.status.state, "ready");
  assert.equal(page.did("mark", { name: "python-ready" }).length, 1);
  page.from(JUDGE, { type: "judged", id: judging.message.id, result: '{"verdict": "pass"}' });
  assert.deepEqual(page.did("settle")[0].outcome, { result: { verdict: "pass" } });
  // a judge that fails to load instead rejects the run waiting for it
  const failing = new Page();
  failing.send({ type: "start" });
  failing.send({ type: "grade", job: 8, exercise: "mul", bodies: {}, limitMs: 5000 });
  failing.from(FIRST_RUNNER, { type: "ready" });
  failing.from(FIRST_RUNNER, { type: "observed", observation: "{}" });
  failing.from(JUDGE, { type: "failed", message: "grader.zip answered HTTP 404" });
  assert.deepEqual(failing.did("reject")[0], { do: "reject", job: 8, message: "grader.zip answered HTTP 404" });
});

test("runs pressed 50 ms apart: the newer waits, the older is never run twice, each on its own runner", () => {
  const page = Page.ready();
  page.send({ type: "grade", job: 1, exercise: "add", bodies: {}, limitMs: 5000 });
  page.send({ type: "cancel", job: 1 }); // already running: cancel drops only a waiting run
  page.send({ type: "grade", job: 2, exercise: "add", bodies: {}, limitMs: 5000 });
  assert.equal(page.did("post").length, 0, "one run at a time");
  page.send({ type: "cancel", job: 2 });
  page.send({ type: "grade", job: 3, exercise: "add", bodies: {}, limitMs: 5000 });
  page.from(FIRST_RUNNER, { type: "observed", observation: "{}" });
  page.from(JUDGE, { type: "judged", id: page.did("post")[0].message.id, result: "{}" });
  assert.deepEqual(
    page.did("settle").map((a) => a.job),
    [1],
  );
  page.send({ type: "painted" });
  const next = page.spawned;
  page.from(next, { type: "ready" });
  assert.deepEqual(page.did("post")[0].worker, next);
  assert.equal(page.state.run.job.id, 3, "the cancelled run 2 never ran");
});

test("Stop while the spare restores settles the waiting run at once, and ends no worker", () => {
  const page = Page.ready();
  page.verdict(1);
  page.send({ type: "grade", job: 2, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "stop", job: 2, reason: "stop" });
  assert.deepEqual(page.actions, [{ do: "settle", job: 2, outcome: { stopped: { reason: "stop", error: null } } }]);
  page.from(page.state.spare.id, { type: "ready" });
  assert.equal(page.did("post").length, 0);
});

test("Stop where the page is isolated: interrupted, then where it was; recovery measured", () => {
  const page = Page.ready({ isolated: true });
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "stop", job: 1, reason: "stop" });
  assert.equal(page.did("interrupt", { worker: FIRST_RUNNER }).length, 1);
  assert.equal(page.did("timer", { key: "run" })[0].ms, INTERRUPT_GRACE_MS);
  page.send({ type: "stop", job: 1, reason: "stop" }); // pressed twice
  assert.equal(page.actions.length, 0);
  page.from(FIRST_RUNNER, { type: "observed", observation: KEYBOARD_INTERRUPT });
  const [settled] = page.did("settle");
  assert.equal(settled.outcome.stopped.reason, "stop");
  assert.equal(settled.outcome.stopped.error.line, 2);
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1, "a stopped run's runner ends at once");
  const spare = page.spawned;
  page.from(spare, { type: "ready" });
  assert.deepEqual(page.did("measure")[0].detail, { how: "interrupt", reason: "stop", answered: true });
});

test("an interrupted run that does not answer in time is ended; so is any run where the page is not isolated", () => {
  const page = Page.ready({ isolated: true });
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "time-up", job: 1 });
  page.send({ type: "grace-over", job: 1 });
  assert.deepEqual(page.did("settle")[0].outcome, { stopped: { reason: "time", error: null } });
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1);
  page.from(page.spawned, { type: "ready" });
  assert.deepEqual(page.did("measure")[0].detail, { how: "end", reason: "time", answered: false });

  const plain = Page.ready();
  plain.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  plain.send({ type: "stop", job: 1, reason: "stop" });
  const spare = plain.spawned;
  assert.equal(plain.did("interrupt").length, 0);
  assert.equal(plain.did("end", { worker: FIRST_RUNNER }).length, 1);
  assert.equal(plain.did("settle")[0].outcome.stopped.reason, "stop");
  plain.from(FIRST_RUNNER, { type: "observed", observation: "{}" }); // too late: nobody listens
  assert.equal(plain.actions.length, 0);
  plain.from(spare, { type: "ready" });
  assert.deepEqual(plain.did("measure")[0].detail, { how: "end", reason: "stop", answered: null });
});

test("a runner that dies mid-run crashes only that run; the next run gets a new runner", () => {
  const page = Page.ready();
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "error", worker: FIRST_RUNNER, message: "Out of memory" });
  assert.deepEqual(page.did("settle")[0].outcome, { crashed: "Out of memory" });
  const spare = page.spawned;
  assert.ok(spare);
  assert.equal(page.state.status.state, "ready");
  page.send({ type: "grade", job: 2, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.from(spare, { type: "ready" });
  assert.equal(page.did("post")[0].worker, spare);
});

test("a worker that fails while loading fails Python and rejects every run; the host's policy is looked at", () => {
  const page = new Page();
  page.send({ type: "start" });
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "error", worker: JUDGE, message: "" });
  assert.match(page.did("check-policy")[0].message, /could not run \(check that assets\/course\/worker\.js/);
  page.from(FIRST_RUNNER, { type: "failed", message: "grader.zip answered HTTP 404" });
  assert.deepEqual(page.state.status, { state: "failed", message: "grader.zip answered HTTP 404" });
  assert.deepEqual(page.did("reject")[0], { do: "reject", job: 1, message: "grader.zip answered HTTP 404" });
  assert.deepEqual(
    page.did("end").map((a) => a.worker),
    [JUDGE, FIRST_RUNNER],
  );
  page.send({ type: "grade", job: 2, exercise: "mul", bodies: {}, limitMs: 5000 });
  assert.equal(page.did("reject")[0].job, 2);
  page.send({ type: "hold", holder: 3 });
  assert.equal(page.did("refuse-holder")[0].holder, 3);
});

test("silence while loading is a failure that says what to check", () => {
  const page = new Page();
  page.send({ type: "start" });
  assert.equal(page.did("timer", { key: "silence" }).length, 1);
  page.from(JUDGE, { type: "progress", loaded: 1, total: 2 });
  assert.equal(page.did("timer", { key: "silence" }).length, 1, "each message restarts the wait");
  page.send({ type: "silent" });
  assert.match(page.state.status.message, /stopped loading .* every file under assets\//);
});

test("what a worker did not say is ignored: forged messages, another role's answers, oversized reports", () => {
  const page = Page.ready();
  assert.equal(page.from(99, { type: "judged", id: 1, result: "{}" }).length, 0);
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.from(FIRST_RUNNER, { type: "judged", id: 1, result: '{"verdict": "pass"}' });
  assert.equal(page.did("settle").length, 0, "only the judge judges");
  page.from(FIRST_RUNNER, { type: "compiled", module: "not a module" });
  assert.equal(page.did("keep-wasm").length, 0);
  page.from(FIRST_RUNNER, { type: "observed", observation: "x".repeat(MAX_OBSERVATION + 1) });
  assert.deepEqual(page.did("settle")[0].outcome, { crashed: "the run sent back more than the page accepts" });
  assert.equal(page.did("post", { worker: JUDGE }).length, 0);
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1);
});

test("the judge's compiled WebAssembly goes to later runners; a first runner's snapshot is saved", () => {
  const page = new Page();
  page.send({ type: "start", isolated: false });
  page.from(FIRST_RUNNER, { type: "snapshot", blob: "memory", digest: "abc", key: "files" }); // before ready
  const saved = { do: "save-snapshot", role: "runner", blob: "memory", digest: "abc", key: "files" };
  assert.deepEqual(page.did("save-snapshot")[0], saved);
  page.from(JUDGE, { type: "ready", ms: 900, restored: null });
  page.from(FIRST_RUNNER, { type: "ready", ms: 800, restored: null });
  const module = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  page.from(JUDGE, { type: "compiled", module });
  assert.equal(page.did("keep-wasm")[0].module, module);
  page.verdict(1);
  assert.equal(page.did("spawn")[0].wasm, true);
});

test("a snapshot from a runner that is ready is not saved: learner code could have sent it", () => {
  const page = Page.ready();
  const theirs = { type: "snapshot", blob: "theirs", digest: "abc" };
  assert.equal(page.from(FIRST_RUNNER, theirs).length, 0);
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: { mul: "pass" }, limitMs: 5000 });
  assert.equal(page.from(FIRST_RUNNER, theirs).length, 0); // during its run
});

test("the judge's warm memory is saved as its own until it is asked to judge, then never", () => {
  const warm = { type: "snapshot", blob: "warm", digest: "def", key: "files+grader" };
  const loading = new Page();
  loading.send({ type: "start", isolated: false });
  loading.from(JUDGE, warm);
  assert.equal(loading.did("save-snapshot").length, 0); // not before it is ready
  const page = Page.ready();
  page.from(JUDGE, warm);
  const saved = { do: "save-snapshot", role: "judge", blob: "warm", digest: "def", key: "files+grader" };
  assert.deepEqual(page.did("save-snapshot"), [saved]);
  assert.deepEqual(page.did("mark", { name: "judge-warm-memory" })[0].detail, { saved: true });
  page.verdict(1);
  assert.equal(page.from(JUDGE, warm).filter((action) => action.do === "save-snapshot").length, 0);
  // asked, even if its answer has not come yet
  const asked = Page.ready();
  asked.send({ type: "grade", job: 1, exercise: "mul", bodies: { mul: "pass" }, limitMs: 5000 });
  asked.from(FIRST_RUNNER, { type: "observed", observation: "{}" });
  assert.deepEqual(asked.from(JUDGE, warm), [{ do: "mark", name: "judge-warm-memory", detail: { saved: false } }]);
  // a judge that did not pack says so with a snapshot of nothing: the page announces it too
  const declined = Page.ready();
  declined.from(JUDGE, { type: "snapshot" });
  assert.equal(declined.did("save-snapshot").length, 0);
  assert.deepEqual(declined.did("mark", { name: "judge-warm-memory" })[0].detail, { saved: false });
});

test("a grader that fails or answers with something not JSON rejects the run", () => {
  const page = Page.ready();
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.from(FIRST_RUNNER, { type: "observed", observation: "{}" });
  const { id } = page.did("post", { worker: JUDGE })[0].message;
  page.from(JUDGE, { type: "judged", id, result: "\u001b[not json" });
  assert.match(page.did("reject")[0].message, /the grader failed/);
});

test("a training session takes the ready spare, and a new spare starts", () => {
  const page = new Page();
  page.send({ type: "start" });
  page.send({ type: "hold", holder: 5 });
  page.from(JUDGE, { type: "ready" });
  page.from(FIRST_RUNNER, { type: "ready" });
  assert.deepEqual(page.did("hand-over")[0], { do: "hand-over", worker: FIRST_RUNNER, holder: 5 });
  const spare = page.spawned;
  assert.ok(spare);
  page.from(FIRST_RUNNER, { type: "observed", observation: "{}" }); // now the session's, not ours
  assert.equal(page.actions.length, 0);
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.from(spare, { type: "ready" });
  assert.equal(page.did("post")[0].worker, spare);
});

test("a run whose widget left the page is stopped, waiting or running", () => {
  const page = Page.ready();
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "grade", job: 2, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "left", job: 2 });
  assert.deepEqual(page.did("settle")[0].outcome, { stopped: { reason: "left", error: null } });
  page.send({ type: "left", job: 1 });
  assert.deepEqual(page.did("settle")[0].outcome, { stopped: { reason: "left", error: null } });
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1);
});

test("restart ends every worker and run, then starts afresh", () => {
  const page = Page.ready();
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  page.send({ type: "restart" });
  assert.deepEqual(page.did("reject")[0], { do: "reject", job: 1, message: "Python was restarted" });
  assert.deepEqual(
    page.did("end").map((a) => a.worker),
    [JUDGE, FIRST_RUNNER],
  );
  assert.deepEqual(
    page.did("spawn").map((a) => a.role),
    ["judge", "runner"],
  );
  assert.equal(page.state.status.state, "loading");
});

test("step never changes the state it is given", () => {
  const page = Page.ready();
  const before = structuredClone(page.state);
  step(page.state, { type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000 });
  assert.deepEqual(page.state, before);
});

test("a nudge goes to the spare like a run, and its measures come back unjudged", () => {
  const page = Page.ready();
  const nudge = { values: { x: 3 }, h: 0.001 };
  page.send({ type: "grade", job: 1, exercise: "mul", bodies: {}, limitMs: 5000, nudge });
  assert.deepEqual(page.did("post")[0].message, { type: "nudge", exercise: "mul", bodies: {}, ...nudge });
  page.from(FIRST_RUNNER, { type: "nudged", answer: '{"inputs": []}' });
  assert.deepEqual(page.did("settle")[0].outcome, { nudged: { inputs: [] } });
  assert.equal(page.did("post", { worker: JUDGE }).length, 0, "nothing to judge");
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1, "its runner is ended at once");
  assert.ok(page.spawned, "and the next spare starts");
});

// "Check my whole engine" (scheduler-fuzz.js): the judge decides, a runner kept for the session runs
const FUZZ = {
  type: "fuzz",
  design: "closures",
  bodies: { mul: "pass" },
  count: 500,
  seed: 0,
  told: [],
  limitMs: 5000,
};
const ASK = (graphs) => JSON.stringify({ ask: { graphs }, progress: { graph: 1, last: 25, of: 500 } });
const judgeAsks = (page) => page.did("post", { worker: JUDGE }).map((a) => a.message);

test("a fuzz session asks the judge first, then keeps the spare for every ask; a new spare starts", () => {
  const page = Page.ready();
  page.send({ ...FUZZ, job: 7 });
  const [begin] = judgeAsks(page);
  assert.equal(begin.type, "fuzz-begin");
  assert.deepEqual([begin.session, begin.design, begin.count, begin.seed], [7, "closures", 500, 0]);
  assert.equal(page.did("post", { worker: FIRST_RUNNER }).length, 0, "nothing runs before the judge asks");
  page.from(JUDGE, { type: "fuzz-judged", id: begin.id, answer: ASK([1]) });
  assert.deepEqual(page.did("fuzz-progress")[0], {
    do: "fuzz-progress",
    job: 7,
    progress: { graph: 1, last: 25, of: 500 },
  });
  const [run] = page.did("post", { worker: FIRST_RUNNER });
  assert.deepEqual(run.message, { type: "fuzz", design: "closures", bodies: { mul: "pass" }, ask: '{"graphs":[1]}' });
  assert.equal(page.did("timer", { key: "fuzz" })[0].ms, 5000);
  const spare = page.spawned;
  assert.ok(spare > FIRST_RUNNER, "a new spare starts for the page's runs");
  page.from(FIRST_RUNNER, { type: "fuzz-ran", answer: '{"reports": []}' });
  const [next] = judgeAsks(page);
  assert.deepEqual([next.type, next.session, next.ran, next.unrunnable], ["fuzz-next", 7, '{"reports": []}', ""]);
  assert.equal(page.did("clear-timer", { key: "fuzz" }).length, 1);
  page.from(JUDGE, { type: "fuzz-judged", id: next.id, answer: ASK([2]) });
  assert.equal(page.did("post", { worker: FIRST_RUNNER }).length, 1, "the same runner runs the next ask");
  assert.equal(describe(page.state).settled, false);
  page.from(FIRST_RUNNER, { type: "fuzz-ran", answer: "{}" });
  const done = judgeAsks(page)[0];
  page.from(JUDGE, { type: "fuzz-judged", id: done.id, answer: JSON.stringify({ found: { verdict: "pass" } }) });
  assert.deepEqual(page.did("settle")[0], { do: "settle", job: 7, outcome: { found: { verdict: "pass" } } });
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1, "the session's runner is ended");
  assert.equal(judgeAsks(page).length, 0, "the judge ended the session itself");
  assert.equal(page.state.fuzz, null);
});

test("Stop ends a fuzz session at once: its runner ended, the judge told, its late answers ignored", () => {
  const page = Page.ready();
  page.send({ ...FUZZ, job: 7 });
  const begin = judgeAsks(page)[0];
  page.from(JUDGE, { type: "fuzz-judged", id: begin.id, answer: ASK([1]) });
  page.send({ type: "stop", job: 7, reason: "stop" });
  assert.deepEqual(page.did("settle")[0].outcome, { stopped: { reason: "stop", error: null } });
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1);
  assert.deepEqual(judgeAsks(page), [{ type: "fuzz-end", session: 7 }]);
  assert.deepEqual(page.from(FIRST_RUNNER, { type: "fuzz-ran", answer: "{}" }), []);
  assert.deepEqual(page.from(JUDGE, { type: "fuzz-judged", id: begin.id, answer: ASK([3]) }), []);
  assert.equal(page.state.fuzz, null);
});

test("a fuzz session waiting for the judge is dropped by Stop; one whose widget left is stopped", () => {
  const page = new Page();
  page.send({ ...FUZZ, job: 3 });
  assert.deepEqual(page.did("reject"), []);
  page.send({ type: "stop", job: 3, reason: "stop" });
  assert.deepEqual(page.did("settle")[0], {
    do: "settle",
    job: 3,
    outcome: { stopped: { reason: "stop", error: null } },
  });
  const ready = Page.ready();
  ready.send({ ...FUZZ, job: 4 });
  ready.send({ type: "left", job: 4 });
  assert.deepEqual(ready.did("settle")[0].outcome, { stopped: { reason: "left", error: null } });
});

test("a fuzz run past its limit ends that runner and tells the judge; the next ask takes a new spare", () => {
  const page = Page.ready();
  page.send({ ...FUZZ, job: 7 });
  page.from(JUDGE, { type: "fuzz-judged", id: judgeAsks(page)[0].id, answer: ASK([1]) });
  const spare = page.spawned;
  page.send({ type: "fuzz-time-up", job: 7 });
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1);
  const [told] = judgeAsks(page);
  assert.deepEqual([told.type, told.ran, told.unrunnable], ["fuzz-next", null, "still running after 5 s"]);
  page.from(JUDGE, {
    type: "fuzz-judged",
    id: told.id,
    answer: JSON.stringify({ ask: { observe: {} }, progress: { shrunk: true } }),
  });
  assert.equal(page.did("post").length, 0, "the spare is still loading");
  page.from(spare, { type: "ready", ms: 500, restored: "runner" });
  assert.deepEqual(page.did("post", { worker: spare })[0].message.ask, '{"observe":{}}');
  assert.deepEqual(page.send({ type: "fuzz-time-up", job: 99 }), [], "another job's timer does nothing");
});

test("a fuzz runner that crashes or sends too much: the session crashes, or the judge gets nothing", () => {
  const page = Page.ready();
  page.send({ ...FUZZ, job: 7 });
  page.from(JUDGE, { type: "fuzz-judged", id: judgeAsks(page)[0].id, answer: ASK([1]) });
  page.from(FIRST_RUNNER, { type: "fuzz-ran", answer: "x".repeat(MAX_OBSERVATION + 1) });
  const [next] = judgeAsks(page);
  assert.equal(next.ran, null);
  assert.deepEqual(page.from(FIRST_RUNNER, { type: "fuzz-ran", answer: "{}" }), [], "one answer per ask");
  page.from(JUDGE, { type: "fuzz-judged", id: next.id, answer: ASK([2]) });
  page.from(FIRST_RUNNER, { type: "crashed", message: "out of memory" });
  assert.deepEqual(page.did("settle")[0].outcome, { crashed: "out of memory" });
  assert.equal(page.did("end", { worker: FIRST_RUNNER }).length, 1);
  const other = Page.ready();
  other.send({ ...FUZZ, job: 8 });
  other.from(JUDGE, { type: "fuzz-judged", id: judgeAsks(other)[0].id, answer: "not json" });
  assert.deepEqual(other.did("settle")[0].outcome, { crashed: "the grader's answer was not one it gives" });
  const raised = Page.ready();
  raised.send({ ...FUZZ, job: 9 });
  const failed = "Traceback (most recent call last):\n  File ...\nValueError: no graph\n";
  raised.from(JUDGE, { type: "fuzz-judged", id: judgeAsks(raised)[0].id, answer: null, message: failed });
  assert.deepEqual(raised.did("settle")[0].outcome, { crashed: "ValueError: no graph" }, "the grader's own words");
});

test("a fuzz session's runner failing, a restart and a failed Python reject or crash it", () => {
  const page = Page.ready();
  page.send({ ...FUZZ, job: 7 });
  page.from(JUDGE, { type: "fuzz-judged", id: judgeAsks(page)[0].id, answer: ASK([1]) });
  page.send({ type: "error", worker: FIRST_RUNNER, message: "boom" });
  assert.deepEqual(page.did("settle")[0].outcome, { crashed: "boom" });
  page.send({ ...FUZZ, job: 8 });
  page.send({ ...FUZZ, job: 9 });
  assert.equal(page.state.fuzzQueue.length, 1, "one session at a time");
  page.send({ type: "restart" });
  assert.deepEqual(
    page.did("reject").map((a) => a.job),
    [8, 9],
  );
  page.send({ type: "fail", message: "gone" });
  page.send({ ...FUZZ, job: 10 });
  assert.deepEqual(page.did("reject")[0], { do: "reject", job: 10, message: "gone" });
});
