// The shell both trainers share (widget/src/training/trainer.js), driven by hand: a widget's
// parts that write down what they are asked, and sessions of the page's Python that answer
// each request when the test says.
import assert from "node:assert/strict";
import { test } from "node:test";
import { serial, Trainer } from "../../widget/src/training/trainer.js";

/** A made-up session: each request waits for `reply`; `stop()` answers the one waiting as
 * held-session.js does. */
class Session {
  waiting = []; // {type, fields, resolve}
  stopped = false;

  request(type, fields) {
    return new Promise((resolve) => this.waiting.push({ type, fields, resolve }));
  }

  reply(answer) {
    this.waiting.shift().resolve(answer);
  }

  stop() {
    this.stopped = true;
    for (const { resolve } of this.waiting.splice(0)) resolve({ stopped: { reason: "stop" } });
  }
}

/** Lets every promise the trainer awaits settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** `count` steps from `from`, as a worker answers them. */
const steps = (from, count, more = {}) => ({ step: from + count, losses: Array(count).fill(1), ...more });

/** Pauses the Train under way (`training`) in its chunk, answered `answer`, and waits till it rests. */
async function pauseIn(training, shell, session, answer) {
  await settle();
  shell.pause();
  session.reply(answer);
  await training;
}

/** A trainer on made-up parts: `log` is what it asked of them, `states` what it announced. */
function trainer(overrides = {}) {
  const log = [];
  const states = [];
  const sessions = [];
  const parts = {
    chunk: 3,
    connected: () => true,
    async open() {
      const session = new Session();
      sessions.push(session);
      return { session, answer: {} };
    },
    started: (answer, step) => log.push(["started", step]),
    ask: (count) => ["steps", { count }],
    came: (answer, from) => log.push(["came", from, answer.losses?.length ?? 0]),
    shown(answer) {
      log.push(["shown", answer.step]);
      return Boolean(answer.finished);
    },
    problem: (answer) => (answer.problem ? [`broke at ${answer.problem}`] : null),
    stopped: (words) => log.push(["stopped", ...words]),
    cleared: () => log.push(["cleared"]),
    paused: () => log.push(["paused"]),
    announce: (state) => states.push(state),
    ...overrides,
  };
  const shell = new Trainer(parts);
  shell.restart();
  return { shell, log, states, sessions, session: () => sessions.at(-1) };
}

test("Train opens a session, shows its start and trains a chunk at a time until Pause", async () => {
  const { shell, log, states, session } = trainer();
  assert.equal(shell.state, "idle");
  const training = shell.train();
  await settle();
  assert.deepEqual(log.slice(1), [["started", 0]]);
  assert.deepEqual(session().waiting[0].fields, { count: 3 });
  session().reply(steps(0, 3));
  await settle();
  session().reply(steps(3, 3));
  await settle();
  shell.pause();
  assert.equal(shell.state, "pausing");
  assert.equal(session().waiting.length, 1, "the chunk under way is shown before it pauses");
  session().reply(steps(6, 3));
  await training;
  assert.deepEqual(log.slice(2), [
    ["came", 0, 3],
    ["shown", 3],
    ["came", 3, 3],
    ["shown", 6],
    ["came", 6, 3],
    ["shown", 9],
    ["paused"],
  ]);
  assert.equal(shell.step, 9);
  assert.deepEqual(states, ["idle", "training", "pausing", "paused"]);
  assert.equal(session().waiting.length, 0, "nothing asked once paused");
  assert.equal(session().stopped, false, "Train goes on in the same session");
});

test("Step takes one step in the session, and says so while it is under way", async () => {
  const stepped = [];
  const { shell, states, sessions, session } = trainer({ stepped: (step) => stepped.push(step) });
  const stepping = shell.stepOnce();
  assert.equal(shell.state, "stepping");
  await settle();
  assert.deepEqual(session().waiting[0].fields, { count: 1 });
  shell.stepOnce(); // pressed again meanwhile: nothing more
  session().reply(steps(0, 1));
  await stepping;
  assert.deepEqual(stepped, [1]);
  assert.equal(session().waiting.length, 0);
  assert.deepEqual(states, ["idle", "stepping", "idle"]);
  const again = shell.stepOnce();
  await settle();
  session().reply(steps(1, 1));
  await again;
  assert.equal(shell.step, 2);
  assert.equal(sessions.length, 1);
});

test("a step from a pause leaves training idle, at the next step", async () => {
  const { shell, session } = trainer();
  await pauseIn(shell.train(), shell, session(), steps(0, 3));
  assert.equal(shell.state, "paused");
  const stepping = shell.stepOnce();
  await settle();
  session().reply(steps(3, 1));
  await stepping;
  assert.deepEqual([shell.state, shell.step], ["idle", 4]);
});

test("a problem ends the session, is said once, and Train starts a new one", async () => {
  const { shell, log, states, sessions, session } = trainer();
  const training = shell.train();
  await settle();
  session().reply(steps(0, 3));
  await settle();
  session().reply(steps(3, 2, { problem: 5 }));
  await training;
  assert.deepEqual(log.slice(-2), [
    ["came", 3, 2],
    ["stopped", "broke at 5"],
  ]);
  assert.equal(sessions[0].stopped, true);
  assert.deepEqual(states.slice(-2), ["training", "stopped"]);
  assert.equal(shell.step, 3, "the steps of the problem's chunk are plotted, not counted");
  const again = shell.train();
  await settle();
  assert.equal(sessions.length, 2);
  await pauseIn(again, shell, sessions[1], steps(0, 3));
  assert.equal(shell.state, "paused");
});

test("a start that fails (an error in the learner's code) is said and nothing is asked", async () => {
  const session = new Session();
  const { shell, log, states } = trainer({ open: async () => ({ session, answer: { problem: "start" } }) });
  await shell.train();
  assert.deepEqual(log.slice(1), [["stopped", "broke at start"]]);
  assert.deepEqual([session.stopped, session.waiting.length], [true, 0]);
  assert.equal(states.at(-1), "stopped");
});

test("no session to be had (Python not available): Train ends idle", async () => {
  const { shell, log, states } = trainer({ open: async () => null });
  await shell.train();
  assert.deepEqual(log, [["cleared"]]);
  assert.deepEqual(states, ["idle", "training", "idle"]);
});

test("training that stops by itself is finished, and Train goes on in the same session", async () => {
  const { shell, sessions, session } = trainer();
  const training = shell.train();
  await settle();
  session().reply(steps(0, 3, { finished: "converged" }));
  await training;
  assert.equal(shell.state, "finished");
  await pauseIn(shell.train(), shell, session(), steps(3, 3));
  assert.deepEqual([shell.state, shell.step, sessions.length], ["paused", 6, 1]);
});

test("a widget with a set number of steps finishes at it, and Train then takes none", async () => {
  const finished = [];
  const { shell, session } = trainer({ more: (step) => step < 5, finished: () => finished.push(shell.step) });
  const training = shell.train();
  await settle();
  session().reply(steps(0, 3));
  await settle();
  session().reply(steps(3, 3));
  await training;
  assert.deepEqual([shell.state, shell.step, finished], ["finished", 6, [6]]);
  await shell.train();
  assert.equal(session().waiting.length, 0);
  assert.deepEqual(finished, [6, 6]);
});

test("between chunks the widget may ask its own requests, and one that ends training stops it", async () => {
  let shell = null;
  const between = async () => Boolean(await shell.request("sample", {}));
  const made = trainer({ between });
  shell = made.shell;
  const training = shell.train();
  await settle();
  made.session().reply(steps(0, 3));
  await settle();
  assert.equal(made.session().waiting[0].type, "sample");
  made.session().reply({ names: ["ada"] });
  await settle();
  made.session().reply(steps(3, 3));
  await settle();
  made.session().reply({ problem: 6 });
  await training;
  assert.equal(shell.state, "stopped");
  assert.deepEqual(made.log.at(-1), ["stopped", "broke at 6"]);
});

test("a widget's own request starts a session if none, and waits its turn behind the steps", async () => {
  const { shell, sessions, session } = trainer();
  const stepping = shell.stepOnce();
  const sampled = shell.request("sample", { count: 8 });
  await settle();
  assert.equal(sessions.length, 1, "one session for both");
  assert.deepEqual(
    session().waiting.map((asked) => asked.type),
    ["steps"],
  );
  session().reply(steps(0, 1));
  await settle();
  assert.equal(session().waiting[0].type, "sample");
  session().reply({ names: ["ada"] });
  assert.deepEqual(await sampled, { names: ["ada"] });
  await stepping;
});

test("Reset during a chunk ends the session and shows nothing of the chunk", async () => {
  const { shell, log, states, sessions } = trainer();
  const training = shell.train();
  await settle();
  sessions[0].reply(steps(0, 3));
  await settle();
  shell.restart(); // the second chunk under way
  await training;
  assert.equal(sessions[0].stopped, true);
  assert.deepEqual(log.slice(-3), [["came", 0, 3], ["shown", 3], ["cleared"]]);
  assert.deepEqual([shell.state, shell.step], ["idle", 0]);
  assert.deepEqual(states, ["idle", "training", "idle"]);
});

test("an answer that comes after Reset is not shown", async () => {
  const late = new Session();
  late.stop = () => {
    late.stopped = true; // ended, but its answer was already on its way
  };
  const { shell, log } = trainer({ open: async () => ({ session: late, answer: {} }) });
  const stepping = shell.stepOnce();
  await settle();
  shell.restart();
  late.reply(steps(0, 1));
  await stepping;
  assert.deepEqual(log, [["cleared"], ["started", 0], ["cleared"]]);
  assert.equal(shell.step, 0);
});

test("Reset then Train while the old chunk is under way: one loop, in a new session", async () => {
  const { shell, sessions } = trainer();
  const first = shell.train();
  await settle();
  shell.restart();
  const second = shell.train();
  await settle();
  await first;
  assert.equal(sessions.length, 2);
  assert.equal(sessions[1].waiting.length, 1, "the old loop asks nothing of the new session");
  await pauseIn(second, shell, sessions[1], steps(0, 3));
  assert.equal(shell.state, "paused");
});

test("Reset while a session opens: the late session is stopped and never used", async () => {
  const late = new Session();
  let open = null;
  const opened = new Promise((resolve) => {
    open = resolve;
  });
  const { shell, log } = trainer({ open: () => opened });
  const training = shell.train();
  await settle();
  shell.restart();
  open({ session: late, answer: {} });
  await training;
  assert.equal(late.stopped, true);
  assert.deepEqual(log, [["cleared"], ["cleared"]]);
  assert.equal(shell.state, "idle");
});

test("a widget taken off the page stops training after the chunk under way", async () => {
  let connected = true;
  const { shell, session } = trainer({ connected: () => connected });
  const training = shell.train();
  await settle();
  connected = false;
  session().reply(steps(0, 3));
  await training;
  assert.equal(shell.state, "idle");
  assert.equal(session().waiting.length, 0);
});

test("serial: requests take turns, and those after stop() are answered stopped", async () => {
  const session = new Session();
  const one = serial(session);
  const first = one.request("a", {});
  const second = one.request("b", {});
  await settle();
  assert.deepEqual(
    session.waiting.map((asked) => asked.type),
    ["a"],
  );
  session.reply("A");
  assert.equal(await first, "A");
  await settle();
  one.stop();
  assert.deepEqual(await second, { stopped: { reason: "stop" } });
  assert.deepEqual(await one.request("c", {}), { stopped: { reason: "stop" } });
});
