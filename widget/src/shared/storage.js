/**
 * The learner's code and progress, kept in localStorage under keys namespaced by the site's own
 * path (two courses on one host never mix) and a format version. Everything is mirrored in memory,
 * so the widget keeps working when storage is disabled or full; `problem` then says why. An entry
 * that cannot be read (damaged) reads as nothing saved, and `damaged(key)` says so. What another
 * browser tab of the site saves reaches this one (the `storage` event): the memory forgets
 * those keys, and `onElsewhere` listeners hear which, so that no tab writes over work it has
 * not seen.
 */
import { wasErased } from "./erased.js";

const SITE = new URL("../../", import.meta.url).pathname;
const PREFIX = `micrograd:${SITE}:v1:`;

/** `[storage, problem]`: a full storage can still be read, a disabled one not at all. */
function openStorage(open) {
  let storage = null;
  try {
    storage = open();
    const probe = `${PREFIX}probe`;
    storage.setItem(probe, "1");
    storage.removeItem(probe);
    return [storage, null];
  } catch (error) {
    return storage && isQuotaError(error) ? [storage, "full"] : [null, "disabled"];
  }
}

function isQuotaError(error) {
  return error?.name === "QuotaExceededError" || error?.name === "NS_ERROR_DOM_QUOTA_REACHED";
}

export class Store {
  #storage;
  #memory = new Map();
  #damaged = new Set();
  #listeners = new Set();
  #elsewhere = new Set();
  /** null, or "disabled" / "full": why work is not being saved. */
  problem;

  /** `open()` gives the storage (localStorage); `events` is where `storage` events come (the window). */
  constructor(open = () => window.localStorage, events = globalThis.window) {
    [this.#storage, this.problem] = openStorage(open);
    events?.addEventListener("storage", (event) => this.#changedElsewhere(event));
  }

  /** Another tab changed (or cleared) the storage: what it changed is read afresh. */
  #changedElsewhere(event) {
    if (!this.#storage || event.storageArea !== this.#storage) return;
    if (event.key !== null && !event.key.startsWith(PREFIX)) return;
    const keys = event.key === null ? [...this.#memory.keys()] : [event.key.slice(PREFIX.length)];
    for (const key of keys) {
      this.#memory.delete(key);
      this.#damaged.delete(key);
    }
    for (const listener of this.#elsewhere) listener(keys);
  }

  /** Calls `listener(keys)` ("code:mul", ...) when another browser tab has changed those entries;
   * returns what stops it. */
  onElsewhere(listener) {
    this.#elsewhere.add(listener);
    return () => this.#elsewhere.delete(listener);
  }

  #read(key) {
    if (this.#memory.has(key)) return this.#memory.get(key);
    let value = null;
    try {
      value = JSON.parse(this.#storage?.getItem(PREFIX + key) ?? "null");
    } catch {
      this.#damaged.add(key); // not JSON: nothing saved can be read from it
    }
    this.#memory.set(key, value);
    return value;
  }

  #write(key, value) {
    // what is saved already (shown from another tab, say) is not written back: a tab echoing a
    // change it heard of could write over a newer one
    if (!this.problem && this.#memory.has(key) && JSON.stringify(this.#memory.get(key)) === JSON.stringify(value))
      return;
    this.#memory.set(key, value);
    if (!this.#storage || wasErased()) return;
    try {
      this.#storage.setItem(PREFIX + key, JSON.stringify(value));
      if (this.problem === "full") this.#setProblem(null);
    } catch (error) {
      this.#setProblem(isQuotaError(error) ? "full" : "disabled");
    }
  }

  /** True when the saved entry `key` ("code:mul") was there but could not be read. */
  damaged(key) {
    this.#read(key);
    return this.#damaged.has(key);
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
    const key = `code:${slot}`;
    const saved = this.#read(key);
    if (typeof saved?.text === "string") return saved;
    if (saved !== null) this.#damaged.add(key); // JSON, but not the shape this widget writes
    return null;
  }

  setCode(slot, text, version) {
    this.#write(`code:${slot}`, { text, version });
  }

  /**
   * An exercise's progress `{attempted, passedWith, verdict, at, hints, solved, passedAt}`: whether
   * a run of code other than the starter code happened, the code (JSON of its bodies) it last
   * passed with or null, its last verdict and when, how many hints were shown, whether it ever
   * passed and when it first did (null if unknown: work saved before the date was kept, whose
   * last run, if it passed, says when). A change of exercise version resets it.
   */
  progress(exercise, version) {
    const saved = this.#read(`progress:${exercise}`);
    if (!saved || saved.version !== version)
      return { attempted: false, passedWith: null, verdict: null, at: null, hints: 0, solved: false, passedAt: null };
    const passedWith = typeof saved.passedWith === "string" ? saved.passedWith : null;
    const verdict = typeof saved.verdict === "string" ? saved.verdict : null;
    const hints = Number.isInteger(saved.hints) ? saved.hints : 0;
    const solved = saved.solved === true || passedWith !== null;
    const at = typeof saved.at === "string" ? saved.at : null;
    const passedAt = typeof saved.passedAt === "string" ? saved.passedAt : solved && verdict === "pass" ? at : null;
    return { attempted: Boolean(saved.attempted), passedWith, verdict, at, hints, solved, passedAt };
  }

  setProgress(exercise, version, progress) {
    this.#write(`progress:${exercise}`, { version, ...progress });
  }

  /** Everything a work file holds (widget/src/work/format.js): `{code: {slot: text}, versions:
   * {slot: version}, progress: {exercise: record}}`, as saved now. */
  saved() {
    const found = { code: {}, versions: {}, progress: {} };
    for (const key of this.#keys()) {
      const [kind, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
      const code = kind === "code" ? this.code(name) : null;
      if (code) [found.code[name], found.versions[name]] = [code.text, code.version];
      const record = kind === "progress" ? this.#read(key) : null;
      if (record && typeof record === "object") found.progress[name] = record;
    }
    return found;
  }

  /** Saves loaded work over what is saved: each slot's code, with the version of the exercise
   * it was written for, and each exercise's progress record. */
  restore({ code, versions, progress }) {
    for (const [slot, text] of Object.entries(code)) this.setCode(slot, text, versions[slot] ?? null);
    for (const [exercise, record] of Object.entries(progress)) this.#write(`progress:${exercise}`, record);
  }

  /** The keys saved this visit or before it, without the prefix. */
  #keys() {
    const keys = new Set(this.#memory.keys());
    try {
      for (let i = 0; i < (this.#storage?.length ?? 0); i++) {
        const key = this.#storage.key(i);
        if (key?.startsWith(PREFIX)) keys.add(key.slice(PREFIX.length));
      }
    } catch {
      // storage gone meanwhile: what this visit read or wrote is in memory
    }
    return keys;
  }

  /** The exercise whose tab a widget (`widget`: its exercises' ids) had open last, or null. */
  tab(widget) {
    const saved = this.#read(`tab:${widget}`);
    return typeof saved === "string" ? saved : null;
  }

  setTab(widget, exercise) {
    if (this.#read(`tab:${widget}`) !== exercise) this.#write(`tab:${widget}`, exercise);
  }

  /**
   * A lesson block's edit (lessons/cells.js), by the page's source path ("gradients.md") and
   * `originals`, the code of each of its blocks now. An edit is saved at its block's place with
   * a digest of the code it was made to (`base`): block `index`'s edit is the one made to its
   * code as it is now, saved at its place or, where the course moved the block, at its old place.
   */
  cellCode(page, index, originals) {
    const [place] = this.#cellPlaces(page, index, originals);
    return place ? this.#read(place).text : null;
  }

  /** An edit saved at block `index`'s place, made to code that no block of the page has now (the
   * course changed the block since): kept for the learner to put back; else null. */
  earlierCellCode(page, index, originals) {
    const saved = this.#read(cellKey(page, index));
    if (typeof saved?.text !== "string" || saved.text === originals[index]) return null;
    return originals.some((code) => digest(code) === saved.base) ? null : saved.text;
  }

  /** Keeps block `index`'s edit at its place (forgetting an old place of it); the page's own
   * code is no edit, and forgets it, but not an earlier edit: only an edit replaces that. */
  setCellCode(page, index, text, originals) {
    const own = cellKey(page, index);
    const edit = text !== originals[index];
    const places = this.#cellPlaces(page, index, originals);
    if (edit) this.#write(own, { text, base: digest(originals[index]) });
    for (const key of places) if (!edit || key !== own) this.#remove(key);
  }

  /** The places holding block `index`'s edit, its own first. Another place holds it where the
   * edit there was made to this block's code and the block there now has other code (identical
   * blocks each keep their own). */
  #cellPlaces(page, index, originals) {
    const base = digest(originals[index]);
    const prefix = cellKey(page, "");
    const own = cellKey(page, index);
    const holds = (key) => {
      const saved = this.#read(key);
      return typeof saved?.text === "string" && saved.base === base;
    };
    const moved = [...this.#keys()].filter((key) => {
      if (!key.startsWith(prefix) || key === own || !holds(key)) return false;
      const at = Number(key.slice(prefix.length));
      return !(at < originals.length && digest(originals[at]) === base);
    });
    return [own].filter(holds).concat(moved);
  }

  #remove(key) {
    if (this.#read(key) === null) return;
    this.#memory.set(key, null);
    try {
      if (!wasErased()) this.#storage?.removeItem(PREFIX + key);
    } catch {
      // storage gone meanwhile: the memory says nothing is saved
    }
  }

  /** A quiz's saved state (any JSON value), or null. */
  quiz(id) {
    return this.#read(`quiz:${id}`);
  }

  setQuiz(id, state) {
    this.#write(`quiz:${id}`, state);
  }
}

/** The key of a lesson block's edit: the page's source path and the block's place on it. */
export function cellKey(page, index) {
  return `cell:${page}:${index}`;
}

/** A short digest of a block's code (FNV-1a, 32 bits): which code an edit was made to. */
export function digest(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** One store per page, shared by every widget, so the diamond sees what the op tabs hold. */
export const store = new Store();
