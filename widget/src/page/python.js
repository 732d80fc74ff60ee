/**
 * The page's Python: a judge worker, which never runs learner code, and runner workers, each
 * used for one run and then thrown away (python-worker.js starts both). A spare runner is kept
 * loaded, restored from the snapshot the first runner made before it ran anything, so that a
 * run starts at once.
 *
 * A run: its runner runs the learner's code and reports what it did (an observation, data
 * only); the judge holds that against the answer key and returns the result. Nothing learner
 * code does, even in JavaScript, reaches the verdict, a later run or another tab. Runs from
 * every widget wait in one queue and go to runners one at a time, each with its time limit.
 *
 * A run that must stop (its time limit, or Stop) ends with its runner. Where the page is
 * cross-origin isolated, the runner is first interrupted for a moment, to learn which line it
 * was on; either way the spare takes over.
 */
import { missingFeature, policyProblem, startPythonWorker, watchPolicy } from "./python-worker.js";
import { writeDigest } from "./snapshot-digest.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const SITE = new URL("../../", import.meta.url);
const DEFAULT_LIMIT_S = 5;
// how long an interrupted run may take to say where it was before its runner is ended
const INTERRUPT_GRACE_MS = 1000;
// a worker that says nothing for this long while loading is stuck (a corrupt file can do that)
const SILENT_LOAD_MS = 60_000;
// an observation larger than this did not come from the runner's own capped report
const MAX_OBSERVATION = 4_000_000;

class Python {
  #judge = null;
  #spare = null; // a runner, loading or ready
  #snapshot = null; // the Blob of a runner's memory made this visit, for the next runners
  #wasm = null; // Pyodide's WebAssembly, as the judge compiled it, for the next runners
  #queue = [];
  #current = null; // {job, runner}
  #trainers = []; // training sessions waiting for a runner of their own
  #judging = new Map(); // request id -> job
  #ids = 0;
  #listeners = new Set();
  #silence = null;
  #recovering = null; // {at, how, reason}: a run was stopped; measured until a spare is ready
  #ahead = null; // a runner loading ahead for a later page (loadAhead)
  #used = []; // the workers of runs being judged, ended once their verdicts are shown
  /** `{state: "idle"|"loading"|"ready"|"failed", loaded, total, sent, ms, message}`: while
   * loading, `loaded` of `total` bytes have arrived (as the files are), and the host sends
   * `sent` bytes in all (fewer where it compresses them). */
  status = { state: "idle" };

  /** Starts the workers, once; later calls do nothing. */
  start() {
    if (this.#judge || this.status.state === "loading") return;
    // the benchmark (bench/) times Python's start-up by these marks; the <head> may have set it
    if (!performance.getEntriesByName("python-start").length) performance.mark("python-start");
    const missing = missingFeature();
    if (missing) {
      this.#fail(
        `this browser has no ${missing}, which Python needs here. A recent Firefox, Safari, Chrome or Edge has them.`,
      );
      return;
    }
    try {
      watchPolicy();
      const early = adoptEarly();
      this.#setStatus({ state: "loading", loaded: 0, total: 0 });
      this.#judge = this.#connect(early?.judge ?? startPythonWorker(WORKER_URL, "judge"));
      this.#spare = this.#connect(early?.runner ?? this.#takeAhead() ?? startPythonWorker(WORKER_URL, "runner"));
      this.#listen();
    } catch (error) {
      this.#fail(`its workers could not be started (${error.message})`);
    }
  }

  /**
   * Loads Python ahead of an exercise page the learner has not opened yet (prefetch.js): one
   * runner, as a first visit's, which fills the browser's caches and saves Python's memory
   * snapshot, then ends. If this page starts Python meanwhile, it is taken as the first spare.
   * Resolves with how it ended: "ready", "taken" or "failed".
   */
  loadAhead() {
    if (this.#ahead || this.status.state !== "idle" || missingFeature()) return Promise.resolve("failed");
    return new Promise((resolve) => {
      const handle = startPythonWorker(WORKER_URL, "runner");
      const end = (how) => {
        if (this.#ahead?.handle !== handle) return;
        this.#ahead = null;
        if (how !== "taken") {
          handle.worker.terminate();
          handle.port.close();
        }
        resolve(how);
      };
      this.#ahead = { handle, end };
      handle.port.onmessage = ({ data }) => {
        if (data?.type === "snapshot" && data.digest) {
          writeDigest(SITE, data.digest);
          this.#snapshot = data.blob;
        } else if (data?.type === "ready" || data?.type === "failed") {
          end(data.type);
        }
      };
      handle.worker.addEventListener("error", () => end("failed"));
    });
  }

  /** The runner loading ahead, if one is, for this page's Python to keep. */
  #takeAhead() {
    const handle = this.#ahead?.handle;
    this.#ahead?.end("taken");
    return handle ?? null;
  }

  /** Ends every worker and every run under way; the next `start()` or `grade()` begins afresh. */
  restart() {
    const error = new Error("Python was restarted");
    this.#kill(error);
    this.#setStatus({ state: "idle" });
    this.start();
  }

  /**
   * Queues a run of `bodies` ({op: code}) for an exercise. Returns `{done, stop(), cancel()}`:
   * `done` resolves with `{result}` (the grader's dict), `{stopped: {reason, error}}` (`reason`
   * "time", "stop" or "left"; `error` where the code was, when known) or `{crashed: message}`
   * (the runner itself broke), and rejects when Python cannot start. `stop()` ends the run,
   * queued or running; `cancel()` drops it if it has not started (a newer run replaces it).
   * `owner` is the element showing the result: a run whose owner has left the page is dropped.
   */
  grade(exercise, bodies, { timeLimit = DEFAULT_LIMIT_S, owner = null } = {}) {
    this.start();
    const running = this.#current?.job;
    if (running?.owner && !running.owner.isConnected) this.#stop(running, "left");
    const job = { exercise, bodies, owner, limitMs: timeLimit * 1000 };
    job.done = new Promise((resolve, reject) => Object.assign(job, { resolve, reject }));
    if (this.status.state === "failed") this.#finish(job, null, new Error(this.status.message));
    else this.#queue.push(job);
    this.#pump();
    return { done: job.done, stop: () => this.#stop(job, "stop"), cancel: () => this.#drop(job) };
  }

  /**
   * A training session (training/session.py) on a runner of its own, which it keeps until
   * `stop()`. Resolves, once a runner is ready, with `{request(type, fields), stop()}`:
   * `request` resolves with the runner's answer (parsed), `{stopped: "time"}` when the runner
   * took longer than `timeLimit` seconds (it is then ended), or `{crashed: message}`.
   */
  train({ timeLimit = DEFAULT_LIMIT_S } = {}) {
    this.start();
    const taken = new Promise((resolve, reject) => this.#trainers.push({ resolve, reject }));
    this.#pump();
    return taken.then((runner) => trainingSession(runner, timeLimit));
  }

  /** Calls `listener(status)` now and on every change. */
  subscribe(listener) {
    this.#listeners.add(listener);
    listener(this.status);
    return () => this.#listeners.delete(listener);
  }

  #connect(handle) {
    const worker = { ...handle, ready: false };
    handle.port.onmessage = ({ data }) => this.#receive(worker, data);
    const failed = (event) => this.#workerFailed(worker, event);
    handle.worker.addEventListener("error", (event) => {
      event.preventDefault();
      failed(event);
    });
    if (handle.errors?.length) queueMicrotask(() => failed(handle.errors[0]));
    return worker;
  }

  #receive(worker, message) {
    if (worker !== this.#judge && worker !== this.#spare && worker !== this.#current?.runner) return;
    if (this.status.state === "loading") this.#listen();
    switch (message?.type) {
      case "progress":
        if (worker === this.#judge && this.status.state === "loading")
          this.#setStatus({ ...this.status, loaded: message.loaded, total: message.total, sent: message.sent });
        break;
      case "snapshot": // a first runner's memory, saved before it ran anything (it says so first)
        if (worker.role !== "runner" || !message.digest) break;
        writeDigest(SITE, message.digest);
        this.#snapshot = message.blob;
        break;
      case "compiled": // from the judge only: it never runs learner code
        if (worker === this.#judge && message.module instanceof WebAssembly.Module) this.#wasm = message.module;
        break;
      case "ready":
        worker.ready = true;
        worker.restored = Boolean(message.restored);
        worker.ms = message.ms;
        this.#ready();
        break;
      case "failed":
        if (!worker.ready) this.#fail(String(message.message));
        break;
      case "observed":
      case "crashed":
        this.#observed(worker, message);
        break;
      case "judged":
        if (worker === this.#judge) this.#judged(message);
        break;
    }
  }

  /** A worker became ready: Python is ready once the judge and a runner are. */
  #ready() {
    if (this.#judge?.ready && this.#spare?.ready) {
      if (this.status.state === "loading") {
        clearTimeout(this.#silence);
        const restored = this.#judge.restored && this.#spare.restored;
        performance.mark("python-ready", { detail: { restored, judgeRestored: this.#judge.restored } });
        this.#setStatus({ state: "ready", ms: this.#judge.ms });
      }
      if (this.#recovering) {
        const { at, how, reason } = this.#recovering;
        this.#recovering = null;
        performance.measure("python-recovery", { start: at, detail: { how, reason } });
      }
    }
    this.#pump();
  }

  #startSpare() {
    if (this.#spare || this.status.state === "failed" || this.status.state === "idle") return;
    this.#spare = this.#connect(startPythonWorker(WORKER_URL, "runner", this.#snapshot, this.#wasm));
  }

  #pump() {
    if (this.#spare?.ready && this.#trainers.length) {
      const runner = this.#spare;
      this.#spare = null;
      this.#startSpare();
      this.#trainers.shift().resolve(runner);
    }
    if (this.#current || !this.#judge?.ready || !this.#spare?.ready) return;
    // a run whose result nobody can see any more (its page was left) is dropped
    const left = (job) => job.owner && !job.owner.isConnected;
    while (this.#queue.length && left(this.#queue[0])) {
      this.#finish(this.#queue.shift(), { stopped: { reason: "left", error: null } });
    }
    const job = this.#queue.shift();
    if (!job) return;
    const runner = this.#spare;
    this.#spare = null;
    this.#current = { job, runner };
    job.timer = setTimeout(() => this.#stop(job, "time"), job.limitMs);
    job.posted = performance.now();
    runner.port.postMessage({ type: "run", exercise: job.exercise, bodies: job.bodies });
  }

  #observed(runner, message) {
    const current = this.#current;
    if (current?.runner !== runner) return;
    const { job } = current;
    job.observed = performance.now();
    const oversized = typeof message.observation !== "string" || message.observation.length > MAX_OBSERVATION;
    const judging = !job.stopping && message.type === "observed" && !oversized;
    this.#endRun({ judging });
    if (job.stopping) {
      this.#stopped(job, whereItWas(message.observation));
    } else if (message.type === "crashed") {
      this.#finish(job, { crashed: String(message.message) });
    } else if (oversized) {
      this.#finish(job, { crashed: "the run sent back more than the page accepts" });
    } else {
      const id = ++this.#ids;
      this.#judging.set(id, job);
      const { exercise, bodies } = job;
      this.#judge.port.postMessage({ type: "judge", id, exercise, bodies, observation: message.observation });
    }
    this.#pump();
  }

  #judged({ id, result, message }) {
    const job = this.#judging.get(id);
    this.#judging.delete(id);
    // the verdict is shown in this task's microtasks: once it is painted, the run's worker is
    // ended and the next runner loads
    afterPaint(() => {
      for (const worker of this.#used.splice(0)) worker.terminate();
      this.#startSpare();
    });
    if (!job) return;
    // the benchmark (bench/) reads where a run's time goes from this measure
    const judged = performance.now();
    const detail = { observe: job.observed - job.posted, judge: judged - job.observed };
    performance.measure("python-run", { start: job.posted, end: judged, detail });
    if (typeof result === "string") this.#finish(job, { result: JSON.parse(result) });
    else this.#finish(job, null, new Error(`the grader failed (${message})`));
  }

  /**
   * Ends the current run: its runner can send nothing more, and is ended. While the judge is
   * `judging` its report, the runner is ended and the next one starts loading once the verdict
   * is shown: on two cores, a worker's teardown or a Python restoring beside the judge and the
   * page slowed both down.
   */
  #endRun({ judging = false } = {}) {
    const { job, runner } = this.#current;
    clearTimeout(job.timer);
    runner.port.close(); // whatever the runner still does reaches nothing
    this.#current = null;
    if (judging) {
      this.#used.push(runner.worker);
    } else {
      runner.worker.terminate();
      this.#startSpare();
    }
  }

  #drop(job) {
    const index = this.#queue.indexOf(job);
    if (index < 0) return false;
    this.#queue.splice(index, 1);
    return true;
  }

  #stop(job, reason) {
    if (job.settled) return;
    if (this.#drop(job)) {
      this.#finish(job, { stopped: { reason, error: null } });
      return;
    }
    if (this.#current?.job !== job || job.stopping) return;
    job.stopping = { reason, at: performance.now() };
    clearTimeout(job.timer);
    const { interrupt } = this.#current.runner;
    if (interrupt) {
      interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at its next bytecode
      job.timer = setTimeout(() => this.#abandon(job), INTERRUPT_GRACE_MS);
    } else {
      this.#abandon(job);
    }
  }

  /** Ends a stopped run's runner without waiting for it to answer. */
  #abandon(job) {
    if (this.#current?.job !== job) return;
    this.#endRun();
    this.#stopped(job, null);
    this.#pump();
  }

  #stopped(job, error) {
    this.#recovering = { at: job.stopping.at, how: error ? "interrupt" : "end", reason: job.stopping.reason };
    this.#finish(job, { stopped: { reason: job.stopping.reason, error } });
    if (this.#spare?.ready) this.#ready();
  }

  #workerFailed(worker, event) {
    const message = event?.message || "check that assets/course/worker.js is deployed";
    if (worker === this.#current?.runner) {
      const { job } = this.#current;
      this.#endRun();
      if (job.stopping) this.#stopped(job, null);
      else this.#finish(job, { crashed: message });
      this.#pump();
    } else if (!worker.ready && (worker === this.#judge || worker === this.#spare)) {
      // a refusal is reported just after the error event: look once the page has heard of it
      setTimeout(() => this.#fail(policyProblem() ?? `the Python worker could not run (${message})`));
    }
  }

  /** While loading, a worker that goes silent for too long has failed. */
  #listen() {
    clearTimeout(this.#silence);
    if (this.status.state !== "loading") return;
    this.#silence = setTimeout(
      () =>
        this.#fail(
          `it stopped loading (nothing for ${SILENT_LOAD_MS / 1000} s). Whoever hosts this course should check that every file under assets/ was copied whole.`,
        ),
      SILENT_LOAD_MS,
    );
  }

  #finish(job, outcome, error) {
    if (!job || job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    if (error) job.reject(error);
    else job.resolve(outcome);
  }

  #kill(error) {
    clearTimeout(this.#silence);
    for (const worker of [this.#judge, this.#spare, this.#current?.runner]) {
      worker?.worker.terminate();
      worker?.port.close();
    }
    for (const worker of this.#used.splice(0)) worker.terminate();
    for (const trainer of this.#trainers.splice(0)) trainer.reject(error);
    const jobs = [this.#current?.job, ...this.#judging.values(), ...this.#queue.splice(0)];
    this.#judge = this.#spare = this.#current = this.#recovering = null;
    this.#judging.clear();
    for (const job of jobs) this.#finish(job, null, error);
  }

  #fail(message) {
    this.#kill(new Error(message));
    this.#setStatus({ state: "failed", message });
  }

  #setStatus(status) {
    this.status = status;
    for (const listener of this.#listeners) listener(status);
  }
}

/** Calls `then` after the next frame is painted, or soon where frames are not (a hidden tab). */
function afterPaint(then) {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    then();
  };
  requestAnimationFrame(() => setTimeout(once));
  setTimeout(once, 100);
}

/** Requests to a training session's own runner, one at a time, each with its time limit. */
function trainingSession(runner, timeLimit) {
  let pending = null; // {resolve, timer}: the request under way
  const answer = (outcome) => {
    const waiting = pending;
    pending = null;
    clearTimeout(waiting?.timer);
    waiting?.resolve(outcome);
  };
  const end = (outcome) => {
    runner.worker.terminate();
    runner.port.close();
    answer(outcome);
  };
  runner.port.onmessage = ({ data }) => {
    if (data?.type === "trained") answer(JSON.parse(data.answer));
    else if (data?.type === "crashed") answer({ crashed: String(data.message) });
  };
  runner.worker.addEventListener("error", (event) => {
    event.preventDefault();
    answer({ crashed: event.message || "the worker failed" });
  });
  return {
    request(type, fields) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => end({ stopped: "time" }), timeLimit * 1000);
        pending = { resolve, timer };
        runner.port.postMessage({ type, ...fields });
      });
    },
    stop: () => end({ stopped: "stop" }),
  };
}

/** Where a stopped run's code was, from what its interrupted runner said, if it said so. */
function whereItWas(observation) {
  try {
    const error = JSON.parse(observation)?.error;
    return error?.type === "KeyboardInterrupt" && error.slot && Number.isInteger(error.line) ? error : null;
  } catch {
    return null;
  }
}

/**
 * The workers the <head> of a page with an exercise started while the page was parsed
 * (early-start.js): `{judge, runner}`, once; or null.
 */
function adoptEarly() {
  const early = globalThis.coursePython;
  delete globalThis.coursePython;
  return early?.judge?.worker instanceof Worker ? early : null;
}

export const python = new Python();
