/**
 * Where Python's memory snapshots are kept (worker/snapshot.js says what they are): the
 * browser's IndexedDB, one database per site (two courses on one host never mix), an entry per
 * role with the key of the files it was made from, so that a new build's files make it miss and
 * the new build's first start replaces it. The page saves entries once it has their digests;
 * workers read them.
 */

// the site's own (the bundle is in assets/course/, two folders down); read when used: the
// page's early start, a classic script with no import.meta, bundles this module too
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

/** Keeps `blob` as `role`'s saved snapshot for `key`, in place of any other. Never rejects. */
export async function saveSnapshot(role, key, blob) {
  try {
    await inStore("readwrite", (store) => store.put({ key, bytes: blob }, role));
    return true;
  } catch {
    return false; // full or disabled: the next visit starts from scratch
  }
}

/** `act(store)`'s request in one transaction on the database; resolves with its result. */
async function inStore(mode, act) {
  const database = await new Promise((resolve, reject) => {
    const request = indexedDB.open(databaseName(), 4);
    request.onupgradeneeded = () => {
      // a read never makes the database: one erased (page/erase.js) stays erased
      if (mode === "readonly") return request.transaction.abort();
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
