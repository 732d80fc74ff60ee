/**
 * Python's memory, saved in the browser's IndexedDB once the grader is imported, so that a later
 * visit restores it instead of starting CPython and importing ~190 modules again. Pyodide's
 * snapshots are private API (`_makeSnapshot`, `_loadSnapshot`): the build turns them on with the
 * plugin's `memory_snapshot` flag, and any failure here only means a normal start.
 *
 * One database per site (two courses on one host never mix) holds one snapshot, with the key of
 * the files it was made from: a new build's files make it miss, and the new build's first start
 * replaces it. Two thirds of the memory is zeros, so the entry leaves out its all-zero pages
 * (`pack`): a third of the bytes to read on every visit. (IndexedDB reads it faster at start-up
 * than Cache Storage, and works on plain-HTTP hosts too.)
 */
const SITE = new URL("../../", import.meta.url);
const DATABASE = `micrograd:${SITE.pathname}:python-memory`;
const STORE = "snapshot";
const PAGE = 4096;
let pending = Promise.resolve(); // saves and drops, in the order they were asked for

/** The snapshot key for these Pyodide, standard library and course files (their URLs). */
export function snapshotKey(files) {
  return new URLSearchParams(files).toString();
}

/** The saved snapshot for `key` as a Uint8Array, or null (none, another build's, no storage). */
export async function savedSnapshot(key) {
  try {
    const entry = await inStore("readonly", (store) => store.get(STORE));
    return entry?.key === key ? unpack(new Uint8Array(entry.bytes)) : null;
  } catch {
    return null; // storage disabled, or a damaged entry
  }
}

/** Keeps `bytes` as the snapshot for `key`, in place of any other. Never rejects. */
export function saveSnapshot(key, bytes) {
  return inTurn((store) => store.put({ key, bytes: pack(bytes).buffer }, STORE));
}

/** Drops the saved snapshot (it failed to restore). Never rejects. */
export function forgetSnapshot() {
  return inTurn((store) => store.delete(STORE));
}

/**
 * Runs `change(store)` after the changes asked for before it. A failure is ignored: storage that
 * is full or disabled only means that the next visit starts from scratch.
 */
function inTurn(change) {
  pending = pending.then(() => inStore("readwrite", change)).catch(() => {});
  return pending;
}

/** `act(store)`'s request in one transaction on the database; resolves with its result. */
async function inStore(mode, act) {
  const database = await new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
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

/**
 * `bytes` without its all-zero pages: Uint32 words [length, runs, (offset, size) per run], then
 * each run's bytes. A page is 4 KiB, and the last, partial one is always kept.
 */
export function pack(bytes) {
  const runs = [];
  for (let at = 0; at < bytes.length; at += PAGE) {
    const end = Math.min(at + PAGE, bytes.length);
    if (end - at === PAGE && isZero(bytes, at, end)) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === at) last[1] += end - at;
    else runs.push([at, end - at]);
  }
  const header = new Uint32Array([bytes.length, runs.length, ...runs.flat()]);
  const packed = new Uint8Array(header.byteLength + runs.reduce((sum, [, size]) => sum + size, 0));
  packed.set(new Uint8Array(header.buffer));
  let to = header.byteLength;
  for (const [offset, size] of runs) {
    packed.set(bytes.subarray(offset, offset + size), to);
    to += size;
  }
  return packed;
}

/** The bytes `pack` was given; throws on an entry that is not whole. */
export function unpack(packed) {
  const word = (index) => new DataView(packed.buffer, packed.byteOffset).getUint32(index * 4, true);
  const length = word(0);
  const runs = word(1);
  const bytes = new Uint8Array(length);
  let from = (2 + 2 * runs) * 4;
  for (let run = 0; run < runs; run++) {
    const [offset, size] = [word(2 + 2 * run), word(3 + 2 * run)];
    if (from + size > packed.length || offset + size > length) throw new Error("damaged snapshot");
    bytes.set(packed.subarray(from, from + size), offset);
    from += size;
  }
  if (from !== packed.length) throw new Error("damaged snapshot");
  return bytes;
}

function isZero(bytes, start, end) {
  for (let at = start; at < end; at++) if (bytes[at] !== 0) return false;
  return true;
}
