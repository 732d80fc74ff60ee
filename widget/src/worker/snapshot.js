/**
 * Python's memory, saved in the browser's IndexedDB so that later workers restore it instead of
 * starting CPython and importing ~190 modules again: a runner's, made on its first start before
 * it has run anything, and the judge's, made once it has imported the grader and warmed up,
 * before it has judged anything. The page keeps each entry's SHA-256 digest where workers
 * cannot write (localStorage, widget/src/page/snapshot-digest.js) and hands them to every
 * worker it starts: an entry that does not match, damaged or written by learner code that
 * reached JavaScript, is never restored.
 *
 * One database per site (two courses on one host never mix) holds an entry per role, with the
 * key of the files it was made from: a new build's files make it miss, and the new build's
 * first start replaces it. An entry leaves out the memory's all-zero pages (snapshot-pack.js).
 */
import { pack } from "./snapshot-pack.js";

// the site's own (assets/course/ is two folders down); read when used: the page's early
// start, a classic script with no import.meta, bundles this module too
const databaseName = () => `micrograd:${new URL("../../", import.meta.url).pathname}:python-memory`;
const STORE = "snapshots";

/** The snapshot key for these Pyodide, standard library and course files (their URLs). */
export function snapshotKey(files) {
  return new URLSearchParams(files).toString();
}

/** `role`'s saved entry for `key`, a Blob of packed bytes; or null (none, another build's, no
 * storage). */
export async function readSnapshot(role, key) {
  try {
    const entry = await inStore("readonly", (store) => store.get(role));
    return entry?.key === key && entry.bytes instanceof Blob ? entry.bytes : null;
  } catch {
    return null; // storage disabled, or a damaged entry
  }
}

/**
 * The bytes of `packed` (a Blob read from storage), if their SHA-256 digest is `digest`; else
 * null. They are still packed (snapshot-pack.js): Pyodide's memory gets them unpacked.
 */
export async function verifiedSnapshot(packed, digest) {
  if (!packed || !digest) return null;
  const bytes = new Uint8Array(await packed.arrayBuffer());
  return (await sha256(bytes)) === digest ? bytes : null;
}

/**
 * The bytes of `packed`, a Blob the page handed over: it took it from a runner before that
 * runner ran anything, and a Blob cannot change, so there is nothing to verify (~15 ms saved
 * on every run's spare).
 */
export async function handedSnapshot(packed) {
  return new Uint8Array(await packed.arrayBuffer());
}

/**
 * Packs Python's memory: `{blob, digest}` to save and to hand to the page. Never rejects:
 * a failure means only that later starts are from scratch.
 */
export async function packSnapshot(memory) {
  const packed = pack(memory);
  return { blob: new Blob([packed]), digest: await sha256(packed) };
}

/** Keeps `blob` as `role`'s saved snapshot for `key`, in place of any other. Never rejects. */
export async function saveSnapshot(role, key, blob) {
  try {
    await inStore("readwrite", (store) => store.put({ key, bytes: blob }, role));
    return true;
  } catch {
    return false; // full or disabled: the next visit starts from scratch
  }
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `act(store)`'s request in one transaction on the database; resolves with its result. */
async function inStore(mode, act) {
  const database = await new Promise((resolve, reject) => {
    const request = indexedDB.open(databaseName(), 4);
    request.onupgradeneeded = () => {
      for (const old of [...request.result.objectStoreNames]) request.result.deleteObjectStore(old);
      request.result.createObjectStore(STORE);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    return await new Promise((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const request = act(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}
