/**
 * The page's one Python: a module Web Worker running Pyodide and the grader. Every widget on the
 * page shares it. `grade()` may be called before Python is ready: the request waits in the worker.
 */
const WORKER_URL = new URL("./worker.js", import.meta.url);

class Python {
  #worker = null;
  #pending = new Map();
  #nextId = 1;
  #listeners = new Set();
  /** `{state: "idle"|"loading"|"ready"|"failed", loaded, total, ms, message}` */
  status = { state: "idle" };

  /** Starts the worker, once; later calls do nothing. */
  start() {
    if (this.#worker) return;
    performance.mark("python-start"); // the benchmark (bench/) times Python's start-up by these marks
    this.#setStatus({ state: "loading", loaded: 0, total: 0 });
    const worker = new Worker(WORKER_URL, { type: "module", name: "python" });
    worker.addEventListener("message", (event) => this.#receive(event.data));
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.#fail(
        `the Python worker could not run (${event.message || "check that assets/course/worker.js is deployed"})`,
      );
    });
    this.#worker = worker;
  }

  /** Ends the worker and every run under way; the next `start()` or `grade()` begins afresh. */
  restart() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#rejectAll(new Error("Python was restarted"));
    this.#setStatus({ state: "idle" });
    this.start();
  }

  /** Grades `bodies` ({slot: code}) for an exercise; resolves with the grader's result dict. */
  grade(exercise, bodies) {
    this.start();
    if (this.status.state === "failed") return Promise.reject(new Error(this.status.message));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ type: "grade", id, exercise, bodies });
    });
  }

  /** Calls `listener(status)` now and on every change. */
  subscribe(listener) {
    this.#listeners.add(listener);
    listener(this.status);
    return () => this.#listeners.delete(listener);
  }

  #receive(message) {
    if (message.type === "progress") {
      this.#setStatus({ state: "loading", loaded: message.loaded, total: message.total });
    } else if (message.type === "ready") {
      performance.mark("python-ready");
      this.#setStatus({ state: "ready", ms: message.ms });
    } else if (message.type === "result") {
      this.#pending.get(message.id)?.resolve(message.result);
      this.#pending.delete(message.id);
    } else if (message.type === "failed") {
      this.#fail(message.message);
    }
  }

  #fail(message) {
    this.#setStatus({ state: "failed", message });
    this.#rejectAll(new Error(message));
  }

  #rejectAll(error) {
    for (const { reject } of this.#pending.values()) reject(error);
    this.#pending.clear();
  }

  #setStatus(status) {
    this.status = status;
    for (const listener of this.#listeners) listener(status);
  }
}

export const python = new Python();

/** Starts Python once the page has nothing better to do. */
export function startWhenIdle() {
  const start = () => python.start();
  if ("requestIdleCallback" in window) requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 300);
}
