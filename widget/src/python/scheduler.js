/**
 * The page's Python as a state machine: `step(state, event)` returns the next state and the
 * actions to carry out, and does nothing itself. python.js carries the actions out (workers,
 * ports, timers, the page) and feeds back what happened as events; tests feed events by hand.
 *
 * The page has one judge (where it grades), which never runs learner code, and runners, each
 * used for one run or one held session (training, a lesson's notebook) and then ended. A spare
 * runner is kept loading or ready. Runs from every widget wait in one queue and go to the spare
 * one at a time, each with its time limit; the runner's report goes to the judge, and once the
 * verdict is painted the used runner is ended and the next spare starts (on two cores, a
 * worker's teardown or a Python restoring beside the judge and the page slowed both). A run that
 * must stop (its time limit, Stop, or its widget left the page) ends with its runner; where the
 * page is cross-origin isolated, the runner is first interrupted for a moment, to learn which
 * line it was on.
 *
 * Workers, runs, held sessions and judge requests are named by numbers from `state.ids`.
 *
 * A page whose Python only holds sessions (lesson blocks, training, microgpt) starts no judge:
 * the first run or check that needs one starts it (`need-judge` from a widget mounted later).
 *
 * Events (`at`: performance.now() when it happened):
 * - `{type: "start", missing, isolated, judge}`: start the workers (`missing`: what the browser
 *   lacks; `judge`: false for a page that needs none yet), `{type: "need-judge"}` (the status
 *   says `grader: "loading"` while a judge started once Python was ready loads)
 * - `{type: "restart"}`, `{type: "fail", message}`
 * - `{type: "grade", job, exercise, bodies, limitMs, nudge, told}`, `{type: "stop", job, reason}`,
 *   `{type: "cancel", job}`, `{type: "left", job}` (the widget showing it left the page)
 * - `{type: "hold", holder}`: a held session (training, a lesson's notebook) wants a runner of
 *   its own
 * - `{type: "message", worker, data}` and `{type: "error", worker, message}` from a worker
 * - `{type: "time-up", job}`, `{type: "grace-over", job}`, `{type: "silent"}`, `{type: "painted"}`
 *
 * Actions (`do`): `spawn {worker, role, wasm}`, `post {worker, message}`, `interrupt {worker}`,
 * `close {worker}` (its port: it can reach nothing more), `end {worker}`, `hand-over {worker,
 * holder}`, `refuse-holder {holder, message}`, `settle {job, outcome}`, `reject {job,
 * message}`, `status {status}`, `timer {key, ms, event}`, `clear-timer {key}`, `after-paint
 * {event}`, `check-policy {message}`, `save-snapshot {role, blob, digest, key}`, `keep-wasm {module}`,
 * `mark {name, detail}`, `measure {name, start, end, detail}`.
 *
 * "Check my whole engine"'s sessions have transitions of their own, in scheduler-fuzz.js.
 */
import {
  fuzzBusy,
  fuzzTimeUp,
  fuzzWorkerFailed,
  killFuzz,
  pumpFuzz,
  queueFuzz,
  receiveFuzz,
  stopFuzz,
} from "./scheduler-fuzz.js";
import { MAX_OBSERVATION } from "./limits.js";
import { snapshotToSave } from "../shared/snapshot-rules.js";

// how long an interrupted run may take to say where it was before its runner is ended: on a busy
// two-core machine 1 s was sometimes too short, and the learner was not told the loop's line
export const INTERRUPT_GRACE_MS = 2000;
// a worker that says nothing for this long while loading is stuck (a corrupt file can do that)
export const SILENT_LOAD_MS = 60_000;

/** The state of a page whose Python has not started. */
export function initialState() {
  return {
    status: { state: "idle" },
    ids: 0,
    isolated: false,
    withJudge: false, // whether the page needs a judge (it may still be starting)
    loader: null, // the worker whose downloads the status counts while loading (the first started)
    judge: null, // {id, ready, memory, ms, phases, asked}: `memory`, whose it restored ("runner", "judge"), or null
    spare: null, // a runner, loading or ready
    run: null, // {job, runner, posted, stopping: {reason, at} | null}
    queue: [], // {id, exercise, bodies, limitMs, nudge, told}: a run, or a nudge when `nudge` is set
    judging: [], // {request, job, posted, observed}
    holders: [], // held sessions waiting for a runner
    used: [], // the runners of runs being judged: ended once the verdict is painted
    recovering: null, // {at, how, reason, answered}: a run was stopped; measured until a spare is ready
    runnerLoaded: null, // {memory, ms, phases}: the first runner ready (a run may have taken it since)
    wasm: false, // whether a compiled WebAssembly module (the judge's, or a first spare's) is kept for later workers
    fuzz: null, // a "Check my whole engine" session under way (scheduler-fuzz.js)
    fuzzQueue: [], // and those waiting for it
  };
}

/** `{state, actions}` after `event`; `state` is not changed. */
export function step(state, event) {
  const machine = new Machine(structuredClone(state), event.at ?? 0);
  machine.handle(event);
  return { state: machine.state, actions: machine.actions };
}

/** What the page announces of its Python (`data-python-*` on <html>), for people and tests. */
export function describe(state) {
  const { status, spare, run, queue, judging, used } = state;
  const busy = run || queue.length || judging.length || used.length || fuzzBusy(state);
  return {
    state: status.state,
    settled: status.state === "ready" && judgeReady(state) && Boolean(spare?.ready) && !busy,
  };
}

/** Whether the judge is ready, or the page needs none. */
const judgeReady = ({ withJudge, judge }) => !withJudge || Boolean(judge?.ready);

class Machine {
  actions = [];

  constructor(state, now) {
    this.state = state;
    this.now = now;
  }

  handle(event) {
    const s = this.state;
    switch (event.type) {
      case "start":
        return this.start(event);
      case "restart":
        this.kill("Python was restarted");
        this.setStatus({ state: "idle" });
        return this.start({ isolated: s.isolated, judge: s.withJudge });
      case "fail":
        return this.fail(event.message);
      case "need-judge":
        return this.needJudge();
      case "grade":
        return this.grade(event);
      case "stop":
        return stopFuzz(this, event.job, event.reason) || this.stop(event.job, event.reason);
      case "cancel":
        return this.drop(event.job);
      case "left":
        return stopFuzz(this, event.job, "left") || this.stop(event.job, "left");
      case "fuzz":
        return queueFuzz(this, event);
      case "fuzz-time-up":
        return fuzzTimeUp(this, event.job);
      case "hold":
        if (s.status.state === "failed")
          return this.do("refuse-holder", { holder: event.holder, message: s.status.message });
        s.holders.push(event.holder);
        return this.pump();
      case "message":
        return this.receive(event.worker, event.data);
      case "error":
        return this.workerFailed(event.worker, event.message);
      case "time-up":
        return s.run?.job.id === event.job && this.stop(event.job, "time");
      case "grace-over":
        return this.abandon(event.job, { answered: false });
      case "silent":
        return this.fail(
          `it stopped loading (nothing for ${SILENT_LOAD_MS / 1000} s). Whoever hosts this course should check that every file under assets/ was copied whole.`,
        );
      case "painted":
        for (const worker of s.used.splice(0)) this.do("end", { worker });
        return this.startSpare();
    }
  }

  start({ missing, isolated, judge = true }) {
    const s = this.state;
    if (s.status.state !== "idle") return;
    if (missing) {
      this.fail(
        `this browser has no ${missing}, which Python needs here. A recent Firefox, Safari, Chrome or Edge has them.`,
      );
      return;
    }
    s.isolated = Boolean(isolated);
    s.withJudge ||= judge;
    this.setStatus({ state: "loading", loaded: 0, total: 0 });
    if (s.withJudge) s.judge = this.spawn("judge");
    s.spare = this.spawn("runner");
    s.loader = (s.judge ?? s.spare).id;
    this.listen();
  }

  /** A run or a check is coming: a page that started without a judge starts it now (watched
   * for silence as a first start is). */
  needJudge() {
    const s = this.state;
    s.withJudge = true;
    if (s.judge || !["loading", "ready"].includes(s.status.state)) return;
    s.judge = this.spawn("judge");
    this.listen();
    // Python is ready but cannot grade yet: said, so a run does not look stuck meanwhile
    if (s.status.state === "ready") this.setStatus({ ...s.status, grader: "loading" });
  }

  grade({ job, exercise, bodies, limitMs, nudge = null, told = [] }) {
    const run = { id: job, exercise, bodies, limitMs, nudge, told };
    if (this.state.status.state === "failed") this.do("reject", { job, message: this.state.status.message });
    else {
      this.needJudge();
      this.state.queue.push(run);
    }
    this.pump();
  }

  receive(worker, data) {
    const s = this.state;
    const known = [s.judge, s.spare, s.run?.runner, s.fuzz?.runner].find((w) => w?.id === worker);
    if (!known) return;
    if (s.status.state === "loading" || (known === s.judge && !known.ready)) this.listen();
    if (receiveFuzz(this, known, data)) return;
    switch (data?.type) {
      case "progress": // the first worker's files: the judge's, or the runner's on a page without
        if (known.id === s.loader && s.status.state === "loading") {
          const { loaded, total, sent } = data;
          this.setStatus({ ...s.status, loaded, total, sent });
        }
        break;
      case "snapshot": {
        const { blob, digest, key } = data;
        const from = known === s.spare ? "spare" : known === s.judge ? "judge" : "runner";
        const role = snapshotToSave({ from, ready: known.ready, asked: known.asked, digest });
        if (role) this.do("save-snapshot", { role, blob, digest, key });
        // the judge says whether it made one, once: announced for whoever waits on it
        if (from === "judge" && known.ready)
          this.do("mark", { name: "judge-warm-memory", detail: { saved: role === "judge" } });
        break;
      }
      // from the judge, which never runs learner code, or a spare before it is ready (none has run)
      case "compiled":
        if ((known === s.judge || (known === s.spare && !known.ready)) && data.module instanceof WebAssembly.Module) {
          s.wasm = true;
          this.do("keep-wasm", { module: data.module });
        }
        break;
      case "ready":
        Object.assign(known, { ready: true, memory: data.restored || null, ms: data.ms, phases: data.phases });
        if (known.role === "runner") s.runnerLoaded ??= { memory: known.memory, ms: known.ms, phases: known.phases };
        // a judge started once Python was ready (needJudge) is no longer watched for silence
        if (known === s.judge && s.status.state === "ready") {
          this.do("clear-timer", { key: "silence" });
          this.setStatus({ state: "ready", ms: s.status.ms });
        }
        this.ready();
        break;
      case "failed":
        if (!known.ready) this.fail(String(data.message));
        break;
      case "observed":
      case "crashed":
        this.observed(known, data);
        break;
      case "nudged": // a nudge's measures: nothing to judge
        this.nudged(known, data);
        break;
      case "judged":
        if (known === s.judge) this.judged(data);
        break;
    }
  }

  /** A worker became ready: Python is ready once the judge (if the page needs one) and a runner
   * have been (a run may have taken that runner while the judge loaded). */
  ready() {
    const { judge, spare, status, recovering, runnerLoaded } = this.state;
    const judged = judgeReady(this.state);
    if (judged && runnerLoaded && status.state === "loading") {
      this.do("clear-timer", { key: "silence" });
      const detail = {
        restored: Boolean(runnerLoaded.memory && (!judge || judge.memory)),
        judgeRestored: Boolean(judge?.memory),
        judgeMemory: judge?.memory ?? null,
        // where each worker's start-up went (worker/load-python.js), for the benchmark
        phases: { judge: judge?.phases ?? null, runner: runnerLoaded.phases ?? null },
      };
      this.do("mark", { name: "python-ready", detail });
      this.setStatus({ state: "ready", ms: (judge ?? runnerLoaded).ms });
    }
    if (judged && spare?.ready && recovering) {
      this.state.recovering = null;
      const { at, ...detail } = recovering; // how, reason, answered
      this.do("measure", { name: "python-recovery", start: at, end: this.now, detail });
    }
    this.pump();
  }

  pump() {
    const s = this.state;
    if (s.spare?.ready && s.holders.length) {
      this.do("hand-over", { worker: s.spare.id, holder: s.holders.shift() });
      s.spare = null;
      this.startSpare();
    }
    pumpFuzz(this);
    // a run need not wait for the judge: its report waits in the judge's port until it is ready
    if (s.run || !s.judge || !s.spare?.ready) return;
    const job = s.queue.shift();
    if (!job) return;
    s.run = { job, runner: s.spare, posted: this.now, stopping: null };
    s.spare = null;
    this.do("timer", { key: "run", ms: job.limitMs, event: { type: "time-up", job: job.id } });
    const { exercise, bodies, nudge } = job;
    const message = nudge ? { type: "nudge", exercise, bodies, ...nudge } : { type: "run", exercise, bodies };
    this.do("post", { worker: s.run.runner.id, message });
  }

  observed(runner, data) {
    const s = this.state;
    if (s.run?.runner !== runner) return;
    const { job, stopping, posted } = s.run;
    const oversized = typeof data.observation !== "string" || data.observation.length > MAX_OBSERVATION;
    const judging = !stopping && data.type === "observed" && !oversized;
    this.endRun({ judging });
    if (stopping) {
      this.stopped(job, stopping, whereItWas(data.observation), { answered: true });
    } else if (data.type === "crashed") {
      this.settle(job, { crashed: String(data.message) });
    } else if (oversized) {
      this.settle(job, { crashed: "the run sent back more than the page accepts" });
    } else {
      const request = ++s.ids;
      s.judging.push({ request, job, posted, observed: this.now });
      const { exercise, bodies, told } = job;
      const message = { type: "judge", id: request, exercise, bodies, told, observation: data.observation };
      s.judge.asked = true; // its memory is no longer one to save
      this.do("post", { worker: s.judge.id, message });
    }
    this.pump();
  }

  nudged(runner, data) {
    const s = this.state;
    if (s.run?.runner !== runner || s.run.stopping) return;
    const { job } = s.run;
    this.endRun();
    const answer =
      typeof data.answer === "string" && data.answer.length < MAX_OBSERVATION ? parseJson(data.answer) : undefined;
    this.settle(
      job,
      answer === undefined ? { crashed: "the nudge sent back something unreadable" } : { nudged: answer },
    );
    this.pump();
  }

  judged({ id, result, message }) {
    const s = this.state;
    const index = s.judging.findIndex((entry) => entry.request === id);
    // the verdict is shown in this task's microtasks: once it is painted, the run's worker is
    // ended and the next runner loads
    this.do("after-paint", { event: { type: "painted" } });
    if (index < 0) return;
    const [{ job, posted, observed }] = s.judging.splice(index, 1);
    // the benchmark (bench/) reads where a run's time goes from this measure
    const detail = { observe: observed - posted, judge: this.now - observed };
    this.do("measure", { name: "python-run", start: posted, end: this.now, detail });
    const parsed = typeof result === "string" ? parseJson(result) : undefined;
    if (parsed !== undefined) this.settle(job, { result: parsed });
    else this.do("reject", { job: job.id, message: `the grader failed (${message ?? "its result was not JSON"})` });
  }

  /** Ends the current run: its runner can send nothing more, and is ended now or, while the
   * judge is `judging` its report, once the verdict is painted. */
  endRun({ judging = false } = {}) {
    const s = this.state;
    const { runner } = s.run;
    this.do("clear-timer", { key: "run" });
    this.do("close", { worker: runner.id }); // whatever the runner still does reaches nothing
    s.run = null;
    if (judging) {
      s.used.push(runner.id);
    } else {
      this.do("end", { worker: runner.id });
      this.startSpare();
    }
  }

  drop(job) {
    const index = this.state.queue.findIndex((queued) => queued.id === job);
    if (index < 0) return false;
    this.state.queue.splice(index, 1);
    return true;
  }

  stop(job, reason) {
    const s = this.state;
    if (this.drop(job)) {
      this.do("settle", { job, outcome: { stopped: { reason, error: null } } });
      return;
    }
    if (s.run?.job.id !== job || s.run.stopping) return;
    s.run.stopping = { reason, at: this.now };
    if (s.isolated) {
      this.do("interrupt", { worker: s.run.runner.id });
      this.do("timer", { key: "run", ms: INTERRUPT_GRACE_MS, event: { type: "grace-over", job } });
    } else {
      this.abandon(job);
    }
  }

  /** Ends a stopped run's runner without waiting for it to answer (`answered` false: it was
   * interrupted and did not answer in time). */
  abandon(job, { answered = null } = {}) {
    const s = this.state;
    if (s.run?.job.id !== job || !s.run.stopping) return;
    const { job: stoppedJob, stopping } = s.run;
    this.endRun();
    this.stopped(stoppedJob, stopping, null, { answered });
    this.pump();
  }

  /** `answered`: whether an interrupted runner answered (null: it was not interrupted, or broke),
   * kept in the recovery's measure for the tests to tell a slow answer from one without a line. */
  stopped(job, stopping, error, { answered = null } = {}) {
    const s = this.state;
    const how = error ? "interrupt" : "end";
    s.recovering = { at: stopping.at, how, reason: stopping.reason, answered };
    this.settle(job, { stopped: { reason: stopping.reason, error } });
    if (s.spare?.ready) this.ready();
  }

  workerFailed(worker, message) {
    const s = this.state;
    message ||= "check that assets/course/worker.js is deployed";
    if (fuzzWorkerFailed(this, worker, message)) return;
    if (s.run?.runner.id === worker) {
      const { job, stopping } = s.run;
      this.endRun();
      if (stopping) this.stopped(job, stopping, null);
      else this.settle(job, { crashed: message });
      this.pump();
    } else if ([s.judge, s.spare].some((w) => w?.id === worker && !w.ready)) {
      // a refusal by the host's policy is reported just after the error event
      this.do("check-policy", { message: `the Python worker could not run (${message})` });
    }
  }

  startSpare() {
    const s = this.state;
    if (s.spare || s.status.state === "failed" || s.status.state === "idle") return;
    s.spare = this.spawn("runner");
  }

  spawn(role) {
    const worker = { id: ++this.state.ids, role, ready: false, memory: null, ms: null, asked: false };
    this.do("spawn", { worker: worker.id, role, wasm: this.state.wasm });
    return worker;
  }

  /** While loading, a worker that goes silent for too long has failed. */
  listen() {
    this.do("timer", { key: "silence", ms: SILENT_LOAD_MS, event: { type: "silent" } });
  }

  settle(job, outcome) {
    this.do("settle", { job: job.id, outcome });
  }

  kill(message) {
    const s = this.state;
    this.do("clear-timer", { key: "silence" });
    this.do("clear-timer", { key: "run" });
    const workers = [s.judge?.id, s.spare?.id, s.run?.runner.id, ...s.used].filter(Boolean);
    for (const worker of workers) this.do("end", { worker });
    for (const holder of s.holders) this.do("refuse-holder", { holder, message });
    const jobs = [s.run?.job, ...s.judging.map((entry) => entry.job), ...s.queue].filter(Boolean);
    for (const job of jobs) this.do("reject", { job: job.id, message });
    killFuzz(this, message);
    Object.assign(s, { judge: null, spare: null, run: null, queue: [], judging: [], holders: [], used: [] });
    s.runnerLoaded = null;
    s.recovering = null;
  }

  fail(message) {
    this.kill(message);
    this.setStatus({ state: "failed", message });
  }

  setStatus(status) {
    this.state.status = status;
    this.do("status", { status });
  }

  do(action, fields) {
    this.actions.push({ do: action, ...fields });
  }
}

/** Where a stopped run's code was, from what its interrupted runner said, if it said so. */
function whereItWas(observation) {
  const error = parseJson(observation)?.error;
  return error?.type === "KeyboardInterrupt" && error.slot && Number.isInteger(error.line) ? error : null;
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
