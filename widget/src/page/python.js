/**
 * The page's one Python: a module Web Worker running Pyodide and the grader, shared by every
 * widget on the page. Runs wait in a queue here and go to the worker one at a time, so each one's
 * time limit counts only its own running time.
 *
 * A run that must stop (its time limit, or the learner's Stop) is interrupted where the page is
 * cross-origin isolated: Python raises KeyboardInterrupt within milliseconds and stays loaded.
 * Otherwise, or when the interrupt goes unanswered (a loop inside C code, a learner's `except`),
 * the worker is terminated and a fresh one started.
 *
 * Page and worker talk over a MessageChannel handed over when the worker starts, never through
 * the worker's global scope, and a result counts only if it carries its run's nonce, which Python
 * never sees: learner code that reaches JavaScript cannot read a request or forge a verdict.
 */
const WORKER_URL = new URL("./worker.js", import.meta.url);
const DEFAULT_LIMIT_S = 5;
// how long an interrupted run may take to come back before its worker is replaced
const INTERRUPT_GRACE_MS = 500;
// a worker that says nothing for this long while loading is stuck (a corrupt file can do that)
const SILENT_LOAD_MS = 60_000;

function nonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

class Python {
  #worker = null;
  #port = null;
  #interrupt = globalThis.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  #queue = [];
  #current = null;
  #listeners = new Set();
  #silence = null;
  #recovering = null; // {reason, at}: a worker replaced to stop a run, until its successor is ready
  /**
   * `{state: "idle"|"loading"|"ready"|"failed", loaded, total, ms, message, restarting}`;
   * `restarting` is true while a replacement for a stopped worker loads.
   */
  status = { state: "idle" };

  /** Starts the worker, once; later calls do nothing. */
  start() {
    if (this.#worker) return;
    // the benchmark (bench/) times Python's start-up by these marks; the <head> may have set it
    if (!performance.getEntriesByName("python-start").length) performance.mark("python-start");
    this.#spawn(false);
  }

  /** Ends the worker and every run under way; the next `start()` or `grade()` begins afresh. */
  restart() {
    this.#kill();
    this.#recovering = null;
    const error = new Error("Python was restarted");
    this.#finish(this.#current, null, error);
    this.#current = null;
    for (const job of this.#queue.splice(0)) this.#finish(job, null, error);
    this.#setStatus({ state: "idle" });
    this.start();
  }

  /**
   * Queues a run of `bodies` ({slot: code}) for an exercise. Returns `{done, stop(), cancel()}`:
   * `done` resolves with `{result}` (the grader's dict) or `{stopped: {reason, result,
   * restarted}}` (`reason` "time", "stop" or "left"; `result` is what Python said when
   * interrupted, if anything), and rejects when Python cannot start. `stop()` ends the run,
   * queued or running; `cancel()` drops it if it has not started (a newer run replaces it).
   * `owner` is the element showing the result: a run whose owner has left the page is dropped.
   */
  grade(exercise, bodies, { timeLimit = DEFAULT_LIMIT_S, owner = null } = {}) {
    this.start();
    // a run whose result nobody can see any more (its page was left) must not hold this one up
    const current = this.#current;
    if (current?.owner && !current.owner.isConnected) this.#stop(current, "left");
    const job = { exercise, bodies, owner, limitMs: timeLimit * 1000, nonce: nonce() };
    job.done = new Promise((resolve, reject) => Object.assign(job, { resolve, reject }));
    if (this.status.state === "failed") this.#finish(job, null, new Error(this.status.message));
    else this.#queue.push(job);
    this.#pump();
    return {
      done: job.done,
      stop: () => this.#stop(job, "stop"),
      cancel: () => this.#drop(job),
    };
  }

  /** Calls `listener(status)` now and on every change. */
  subscribe(listener) {
    this.#listeners.add(listener);
    listener(this.status);
    return () => this.#listeners.delete(listener);
  }

  #spawn(restarting) {
    this.#setStatus({ state: "loading", loaded: 0, total: 0, restarting });
    const early = restarting ? null : startedEarly();
    const worker = early?.worker ?? new Worker(WORKER_URL, { type: "module", name: "python" });
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => {
      if (worker === this.#worker) this.#receive(event.data);
    };
    const failed = (event) => {
      if (worker !== this.#worker || this.status.state !== "loading") return;
      event.preventDefault(); // said on the status line instead
      this.#fail(
        `the Python worker could not run (${event.message || "check that assets/course/worker.js is deployed"})`,
      );
    };
    worker.addEventListener("error", failed);
    worker.postMessage({ type: "connect", interrupt: this.#interrupt?.buffer ?? null }, [channel.port2]);
    this.#worker = worker;
    this.#port = channel.port1;
    this.#listen();
    if (early?.error) failed(early.error);
  }

  #kill() {
    clearTimeout(this.#silence);
    this.#worker?.terminate();
    this.#port?.close();
    this.#worker = this.#port = null;
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

  #receive(message) {
    const loading = this.status.state === "loading";
    if (message?.type === "result") return this.#answered(message);
    if (!loading) return; // progress, ready and failed mean nothing once Python runs learner code
    if (message?.type === "progress") {
      const { loaded, total } = message;
      this.#setStatus({ ...this.status, loaded, total });
      this.#listen();
    } else if (message?.type === "ready") {
      clearTimeout(this.#silence);
      performance.mark("python-ready", { detail: { restored: Boolean(message.restored) } });
      this.#recovered();
      this.#setStatus({ state: "ready", ms: message.ms });
      this.#pump();
    } else if (message?.type === "failed") {
      this.#fail(String(message.message));
    }
  }

  #answered({ nonce: proof, result, replace }) {
    const job = this.#current;
    if (!job || proof !== job.nonce) return; // not the run under way: ignored
    if (job.stopping) {
      performance.measure("python-recovery", {
        start: job.stopping.at,
        detail: { how: "interrupt", reason: job.stopping.reason },
      });
      this.#finish(job, { stopped: { reason: job.stopping.reason, result, restarted: false } });
    } else {
      this.#finish(job, { result });
    }
    this.#current = null;
    // a worker whose memory grew huge, or whose Python broke, makes way for a fresh one
    if (replace) this.#replace("replace");
    else this.#pump();
  }

  #pump() {
    if (this.#current || this.status.state !== "ready") return;
    let job;
    while ((job = this.#queue.shift())) {
      if (!job.owner || job.owner.isConnected) break;
      this.#finish(job, { stopped: { reason: "left", result: null, restarted: false } });
    }
    if (!job) return;
    this.#current = job;
    if (this.#interrupt) this.#interrupt[0] = 0;
    job.timer = setTimeout(() => this.#stop(job, "time"), job.limitMs);
    this.#port.postMessage({ type: "grade", nonce: job.nonce, exercise: job.exercise, bodies: job.bodies });
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
      this.#finish(job, { stopped: { reason, result: null, restarted: false } });
      return;
    }
    if (job !== this.#current || job.stopping) return;
    job.stopping = { reason, at: performance.now() };
    clearTimeout(job.timer);
    if (this.#interrupt) {
      this.#interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at its next bytecode
      job.timer = setTimeout(() => job === this.#current && this.#replace(reason), INTERRUPT_GRACE_MS);
    } else {
      this.#replace(reason);
    }
  }

  /**
   * Terminates the worker (ending the current run, if any) and starts a fresh one; `reason` is
   * why: the stopped run's ("time", "stop", "left"), or "replace" when the worker asked for it.
   */
  #replace(reason) {
    const job = this.#current;
    this.#current = null;
    this.#kill();
    this.#recovering = { at: job?.stopping?.at ?? performance.now(), reason };
    if (job) this.#finish(job, { stopped: { reason, result: null, restarted: true } });
    this.#spawn(true);
  }

  /** A replacement worker is ready: the time since the stop is how long recovery took. */
  #recovered() {
    if (!this.#recovering) return;
    const { at, reason } = this.#recovering;
    this.#recovering = null;
    performance.measure("python-recovery", { start: at, detail: { how: "restart", reason } });
  }

  #finish(job, outcome, error) {
    if (!job || job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    if (error) job.reject(error);
    else job.resolve(outcome);
  }

  #fail(message) {
    this.#kill();
    this.#recovering = null;
    this.#setStatus({ state: "failed", message });
    const error = new Error(message);
    this.#finish(this.#current, null, error);
    this.#current = null;
    for (const job of this.#queue.splice(0)) this.#finish(job, null, error);
  }

  #setStatus(status) {
    this.status = status;
    for (const listener of this.#listeners) listener(status);
  }
}

/**
 * The worker that the <head> of a page with an exercise started while the page was parsed
 * (course/assets.py), with the error it may have had meanwhile: `{worker, error}`, once; or null.
 */
function startedEarly() {
  const early = globalThis.coursePython;
  delete globalThis.coursePython;
  if (!(early?.worker instanceof Worker)) return null;
  early.worker.onerror = null;
  return early;
}

export const python = new Python();

