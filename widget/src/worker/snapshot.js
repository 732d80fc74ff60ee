/**
 * Python's memory, saved so that later workers restore it instead of starting CPython and
 * importing ~190 modules again: a runner's, made on its first start before it has run anything,
 * and the judge's, made once it has imported the grader and warmed up, before it has judged
 * anything. The page keeps each entry's SHA-256 digest where workers cannot write (localStorage,
 * widget/src/python/snapshot-digest.js) and hands them to every worker it starts: an entry that
 * does not match, damaged or written by learner code that reached JavaScript, is never restored.
 *
 * They are kept in IndexedDB (shared/snapshot-store.js), each without the memory's all-zero
 * pages (snapshot-pack.js).
 */
import { pack } from "./snapshot-pack.js";

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

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
