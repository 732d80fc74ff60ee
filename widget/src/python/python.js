/**
 * The page's Python: what scheduler.js decides, carried out with Workers, MessagePorts, timers
 * and the page. A judge worker never runs learner code; runner workers are each used for one
 * run (or one held session: training, a lesson's notebook) and then ended (ARCHITECTURE.md).
 * Nothing learner code does, even in JavaScript, reaches the verdict, a later run or another tab
 * (a runner is cut off from storage and channels first, worker/cut-off.js).
 *
 * The page announces its Python on <html>: `data-python-state` (idle, loading, ready, failed),
 * `data-python-settled` ("true" once nothing is under way and a spare is ready), and the names
 * of its workers: `data-python-judge`, `data-python-spare`, `data-python-workers` (all alive).
 */
import { adoptAhead, endJudgeAhead, loadAhead, loadJudgeAhead } from "./load-ahead.js";
import { missingFeature, policyProblem, startPythonWorker, watchPolicy } from "./python-worker.js";
import { describe, initialState, step } from "./scheduler.js";
import { memoryToHand } from "../shared/snapshot-rules.js";
import { saveSnapshot } from "../shared/snapshot-store.js";
import { writeDigest } from "./snapshot-digest.js";
import { wasErased } from "../shared/erased.js";
import { courseUpdated, sayUpdated, UPDATED } from "../page/offline.js";
import { heldSession } from "./held-session.js";

// named by its content (widget/build.mjs): never another deploy's
const WORKER_URL = new URL(`./${COURSE_WORKER}`, import.meta.url);
const SITE = new URL("../../", import.meta.url);
const DEFAULT_LIMIT_S = 5;

class Python {
  #state = initialState();
  #events = []; // waiting to be stepped: an action may cause another event
  #handles = new Map(); // worker id -> {worker, port, name, interrupt}
  #jobs = new Map(); // run id -> {resolve, reject, owner}
  #holders = new Map(); // held session's id -> {resolve, reject, timeLimit, interrupt}
  #timers = new Map();
  #ids = 0;
  #listeners = new Set();
  #early = null; // the workers the <head> started, until adopted
  #snapshot = null; // the Blob of a runner's memory made this visit, for the next runners
  // ...and for later visits, saved once the page settles, with the judge's: written while the
  // first run ran, its ~11 MB slowed that run's verdict on two cores
  #unsaved = [];
  #wasm = null; // Pyodide's WebAssembly, as the judge (or a first spare) compiled it, for later workers

  /** `{state: "idle"|"loading"|"ready"|"failed", loaded, total, sent, ms, message}`: while
   * loading, `loaded` of `total` bytes have arrived (as the files are), and the host sends
   * `sent` bytes in all (fewer where it compresses them). */
  get status() {
    return this.#state.status;
  }

  /** Whether a run asked for now would be graded at once: Python is ready, and so is its grader
   * (read after `grade()` or `fuzz()`, which start a judge where the page had none). */
  get canGrade() {
    const { state, grader } = this.#state.status;
    return state === "ready" && grader !== "loading";
  }

  /** Starts the workers, once: a runner, and the judge unless `judge` is false (a page whose
   * Python only holds sessions: lesson blocks, training). A later call with `judge` starts the
   * judge if none was; any other later call does nothing. */
  start({ judge = true } = {}) {
    if (this.status.state !== "idle") {
      if (judge) this.#dispatch({ type: "need-judge" });
      return;
    }
    // the benchmark (bench/) times Python's start-up by these marks; the <head> may have set it
    if (!performance.getEntriesByName("python-start").length) performance.mark("python-start");
    const missing = missingFeature();
    if (!missing) {
      watchPolicy();
      this.#early = adoptEarly();
    }
    judge ||= Boolean(this.#early?.judge); // the <head> started one: the page's HTML says it grades
    const isolated = globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function";
    this.#dispatch({ type: "start", missing, isolated, judge });
  }

  /**
   * Loads Python ahead of an exercise page the learner has not opened yet (prefetch.js, through
   * load-ahead.js). Resolves with how it ended: "ready", "taken" or "failed". Once this page's
   * own Python has started without a judge (a lesson's blocks), only a judge loads ahead, from
   * the memory this page's first runner made.
   */
  loadAhead() {
    if (missingFeature()) return Promise.resolve("failed");
    if (this.status.state === "idle") return loadAhead(WORKER_URL, SITE);
    if (!this.#state.withJudge) return loadJudgeAhead(WORKER_URL, SITE, this.#snapshot);
    return Promise.resolve("failed");
  }

  /** Ends every worker and every run under way, and starts afresh. */
  restart() {
    this.#dispatch({ type: "restart" });
  }

  /**
   * Queues a run of `bodies` ({op: code}) for an exercise. Returns `{done, stop(), cancel()}`:
   * `done` resolves with `{result}` (the grader's dict), `{stopped: {reason, error}}` (`reason`
   * "time", "stop" or "left"; `error` where the code was, when known) or `{crashed: message}`
   * (the runner itself broke), and rejects when Python cannot start. `stop()` ends the run,
   * queued or running; `cancel()` drops it if it has not started (a newer run replaces it).
   * `owner` is the element showing the result: a run whose owner has left the page is stopped.
   * With `nudge` (`{values, h}`, runner/nudge.py) the runner measures instead, and `done`
   * resolves with `{nudged: measures}`: nothing is judged. `told` lists the ops whose rule the
   * verdict may say (exercise/ladder.js).
   */
  grade(exercise, bodies, { timeLimit = DEFAULT_LIMIT_S, owner = null, nudge = null, told = [] } = {}) {
    this.start();
    const job = ++this.#ids;
    const done = new Promise((resolve, reject) => this.#jobs.set(job, { resolve, reject, owner }));
    this.#dispatch({ type: "grade", job, exercise, bodies, limitMs: timeLimit * 1000, nudge, told });
    return {
      done,
      stop: () => this.#dispatch({ type: "stop", job, reason: "stop" }),
      cancel: () => this.#dispatch({ type: "cancel", job }),
    };
  }

  /**
   * "Check my whole engine" (scheduler-fuzz.js): the learner's `bodies` of a `design` on `count`
   * random graphs, drawn from `seed`, on a runner of the session's own, the judge deciding.
   * Returns `{done, stop()}`: `done` resolves with `{found}` (what grader/fuzz_page.py's search found),
   * `{stopped: {reason}}` or `{crashed: message}`; `onProgress(progress)` hears each step.
   */
  fuzz(design, bodies, { count, seed, told = [], timeLimit = DEFAULT_LIMIT_S, owner = null, onProgress }) {
    this.start();
    const job = ++this.#ids;
    const done = new Promise((resolve, reject) => this.#jobs.set(job, { resolve, reject, owner, onProgress }));
    this.#dispatch({ type: "fuzz", job, design, bodies, count, seed, told, limitMs: timeLimit * 1000 });
    return { done, stop: () => this.#dispatch({ type: "stop", job, reason: "stop" }) };
  }

  /**
   * A session held by a runner of its own (held-session.js: a training session, a lesson page's
   * notebook), which it keeps until `stop()` or `end()`; resolves once a runner is ready, rejects
   * when Python cannot start. With `interrupt`, a request past `timeLimit` or stopped is
   * interrupted where the page can, and the runner kept.
   */
  session({ timeLimit = DEFAULT_LIMIT_S, interrupt = false } = {}) {
    this.start({ judge: false });
    const holder = ++this.#ids;
    const taken = new Promise((resolve, reject) =>
      this.#holders.set(holder, { resolve, reject, timeLimit, interrupt }),
    );
    this.#dispatch({ type: "hold", holder });
    return taken;
  }

  /** Calls `listener(status)` now and on every change. */
  subscribe(listener) {
    this.#listeners.add(listener);
    listener(this.status);
    return () => this.#listeners.delete(listener);
  }

  #dispatch(event) {
    this.#events.push(event);
    if (this.#events.length > 1) return; // an earlier event's actions are being carried out
    while (this.#events.length) {
      this.#noticeLeft();
      try {
        const { state, actions } = step(this.#state, { at: performance.now(), ...this.#events[0] });
        this.#state = state;
        for (const action of actions) this.#carryOut(action);
      } catch (error) {
        queueMicrotask(() => {
          throw error; // a bug, reported as uncaught; the events after it are still handled
        });
      }
      this.#events.shift();
    }
    this.#announce();
  }

  /** A run whose result nobody can see any more (its widget left the page) is stopped. */
  #noticeLeft() {
    for (const [job, entry] of this.#jobs) {
      if (entry.owner && !entry.owner.isConnected && !entry.left) {
        entry.left = true;
        this.#events.push({ type: "left", job });
      }
    }
  }

  /** Carries out one of the scheduler's actions, by what it touches. */
  #carryOut(action) {
    switch (action.do) {
      case "spawn":
        return this.#spawn(action);
      case "post":
      case "interrupt":
      case "close":
      case "end":
      case "hand-over":
        return this.#toWorker(action, this.#handles.get(action.worker));
      case "refuse-holder":
      case "settle":
      case "reject":
      case "fuzz-progress":
        return this.#answer(action);
      case "timer":
      case "clear-timer":
      case "after-paint":
      case "check-policy":
        return this.#later(action);
      default:
        return this.#keep(action);
    }
  }

  /** An action on a worker (its `handle`, if it is still alive). */
  #toWorker(action, handle) {
    switch (action.do) {
      case "post":
        return handle?.port.postMessage(action.message);
      case "interrupt":
        if (handle?.interrupt) handle.interrupt[0] = 2; // SIGINT: KeyboardInterrupt at the next bytecode
        return;
      case "close":
        return handle?.port.close();
      case "end":
        this.#handles.delete(action.worker);
        handle?.worker.terminate();
        return handle?.port.close();
      case "hand-over":
        return this.#handOver(handle, action);
    }
  }

  /** An answer to whoever waits: a run's or a check's caller, or a holder's. */
  #answer(action) {
    const job = this.#jobs.get(action.job);
    switch (action.do) {
      case "refuse-holder":
        this.#holders.get(action.holder)?.reject(new Error(action.message));
        return this.#holders.delete(action.holder);
      case "settle":
        job?.resolve(action.outcome);
        return this.#jobs.delete(action.job);
      case "reject":
        job?.reject(new Error(action.message));
        return this.#jobs.delete(action.job);
      case "fuzz-progress":
        return job?.onProgress?.(action.progress);
    }
  }

  /** An event to step later: after a time, after the next paint, or once a refusal is told. */
  #later(action) {
    switch (action.do) {
      case "timer":
        clearTimeout(this.#timers.get(action.key));
        return this.#timers.set(
          action.key,
          setTimeout(() => this.#dispatch(action.event), action.ms),
        );
      case "clear-timer":
        return clearTimeout(this.#timers.get(action.key));
      case "after-paint":
        return afterPaint(() => this.#dispatch(action.event));
      case "check-policy": // a refusal is reported just after the error: look once it has been
        return setTimeout(() => this.#dispatch({ type: "fail", message: policyProblem() ?? action.message }));
    }
  }

  /** What the page keeps or tells: the status, snapshots, the WebAssembly, timeline marks. */
  #keep(action) {
    switch (action.do) {
      case "status":
        for (const listener of this.#listeners) listener(action.status);
        return;
      case "save-snapshot":
        writeDigest(SITE, action.role, action.digest);
        if (action.role === "runner") this.#snapshot = action.blob;
        this.#unsaved.push(action);
        return;
      case "keep-wasm":
        this.#wasm = action.module;
        return;
      case "mark":
        performance.mark(action.name, { detail: action.detail });
        return;
      case "measure":
        performance.measure(action.name, { start: action.start, end: action.end, detail: action.detail });
        return;
    }
  }

  /** A new worker: the one the <head> started, then the one loading ahead, else a new one. */
  #spawn({ worker: id, role, wasm }) {
    let handle = this.#early?.[role] ?? null;
    if (this.#early) delete this.#early[role];
    if (role === "judge") endJudgeAhead(); // the page's own judge saves its warm memory
    if (!handle && role === "runner") {
      const ahead = adoptAhead();
      handle = ahead.handle;
      this.#snapshot ??= ahead.snapshot;
    }
    try {
      const snapshot = memoryToHand(role, this.#snapshot);
      handle ??= startPythonWorker(WORKER_URL, role, { id, snapshot, wasm: wasm ? this.#wasm : null });
    } catch (error) {
      this.#dispatch({ type: "fail", message: `its workers could not be started (${error.message})` });
      return;
    }
    this.#handles.set(id, handle);
    handle.port.onmessage = ({ data }) => {
      const event = { type: "message", worker: id, data };
      if (data?.type === "failed") this.#failed(event);
      else this.#dispatch(event);
    };
    handle.worker.addEventListener("error", (event) => {
      event.preventDefault(); // said on the status line instead
      this.#failed({ type: "error", worker: id, message: event.message });
    });
    const early = handle.errors?.[0];
    if (early) this.#failed({ type: "error", worker: id, message: early.message });
  }

  /** A worker that could not load or broke: if the host now serves another deploy than the
   * page's (its files may be gone, or new), Python stops here and the page says to reload;
   * otherwise the failure is the scheduler's to handle. */
  #failed(event) {
    courseUpdated().then((updated) => {
      if (!updated) return this.#dispatch(event);
      sayUpdated();
      this.#dispatch({ type: "fail", message: UPDATED.replace(/^This/, "this") });
    });
  }

  #handOver(handle, { worker, holder }) {
    this.#handles.delete(worker);
    const waiting = this.#holders.get(holder);
    this.#holders.delete(holder);
    if (waiting) waiting.resolve(heldSession(handle, waiting.timeLimit, { interrupt: waiting.interrupt }));
    else handle.worker.terminate();
  }

  #announce() {
    const { state, settled } = describe(this.#state);
    if (settled && !wasErased()) {
      for (const { role, key, blob } of this.#unsaved.splice(0)) saveSnapshot(role, key, blob); // never rejects
    }
    if (typeof document === "undefined") return;
    const name = (worker) => (worker && this.#handles.get(worker.id)?.name) ?? "";
    Object.assign(document.documentElement.dataset, {
      pythonState: state,
      pythonSettled: String(settled),
      pythonJudge: name(this.#state.judge),
      pythonSpare: name(this.#state.spare),
      pythonWorkers: [...this.#handles.values()].map((handle) => handle.name).join(" "),
    });
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

/**
 * The workers the <head> of a page with Python started while the page was parsed
 * (early-start.js): `{judge, runner}` (judge null where the page grades nothing), once; or null.
 */
function adoptEarly() {
  const early = globalThis.coursePython;
  delete globalThis.coursePython;
  return early?.runner?.worker instanceof Worker ? early : null;
}

export const python = new Python();
