/**
 * The learner's code and progress, kept in localStorage under keys namespaced by the site's own
 * path (two courses on one host never mix) and a format version. Everything is mirrored in memory,
 * so the widget keeps working when storage is disabled or full; `problem` then says why.
 */
const SITE = new URL("../../", import.meta.url).pathname;
const PREFIX = `micrograd:${SITE}:v1:`;

function openStorage() {
  try {
    const storage = window.localStorage;
    const probe = `${PREFIX}probe`;
    storage.setItem(probe, "1");
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

class Store {
  #storage = openStorage();
  #memory = new Map();
  #listeners = new Set();
  /** null, or "disabled" / "full": why work is not being saved. */
  problem = this.#storage ? null : "disabled";

  #read(key) {
    if (this.#memory.has(key)) return this.#memory.get(key);
    let value = null;
    try {
      value = JSON.parse(this.#storage?.getItem(PREFIX + key) ?? "null");
    } catch {
      value = null; // a corrupt entry reads as nothing saved
    }
    this.#memory.set(key, value);
    return value;
  }

  #write(key, value) {
    this.#memory.set(key, value);
    if (!this.#storage) return;
    try {
      this.#storage.setItem(PREFIX + key, JSON.stringify(value));
      if (this.problem === "full") this.#setProblem(null);
    } catch {
      this.#setProblem("full");
    }
  }

  #setProblem(problem) {
    this.problem = problem;
    for (const listener of this.#listeners) listener(problem);
  }

  /** Calls `listener(problem)` whenever saving starts or stops failing. */
  onProblem(listener) {
    this.#listeners.add(listener);
  }

  /** The saved code of a slot: `{text, version}` or null. */
  code(slot) {
    const saved = this.#read(`code:${slot}`);
    return typeof saved?.text === "string" ? saved : null;
  }

  setCode(slot, text, version) {
    this.#write(`code:${slot}`, { text, version });
  }

  /** An exercise's progress `{attempted, passed}`; a change of exercise version resets it. */
  progress(exercise, version) {
    const saved = this.#read(`progress:${exercise}`);
    if (!saved || saved.version !== version) return { attempted: false, passed: false };
    return { attempted: Boolean(saved.attempted), passed: Boolean(saved.passed) };
  }

  setProgress(exercise, version, progress) {
    this.#write(`progress:${exercise}`, { version, ...progress });
  }

  /** A quiz's saved state (any JSON value), or null. */
  quiz(id) {
    return this.#read(`quiz:${id}`);
  }

  setQuiz(id, state) {
    this.#write(`quiz:${id}`, state);
  }
}

/** One store per page, shared by every widget, so the diamond sees what the op tabs hold. */
export const store = new Store();
