/**
 * Python's memory, saved in the browser's Cache Storage once the grader is imported, so that a
 * later visit restores it instead of starting CPython and importing ~190 modules again. Pyodide's
 * snapshots are private API (`_makeSnapshot`, `_loadSnapshot`): the build turns them on with the
 * plugin's `memory_snapshot` flag, and any failure here only means a normal start.
 *
 * One entry per site (two courses on one host never mix), named by the files the snapshot was
 * made from: a new build's files make it miss, and the first start of the new build replaces it.
 * Two thirds of the memory is zeros, so the entry leaves out its all-zero pages (`pack`): a
 * third of the bytes to read on every visit.
 */
const SITE = new URL("../../", import.meta.url);
const CACHE_NAME = `micrograd:${SITE.pathname}:python-memory`;
const PAGE = 4096;
let pending = Promise.resolve(); // saves and drops, in the order they were asked for

/** The snapshot key for these Pyodide, standard library and course files (their URLs). */
export function snapshotKey(files) {
  return new URL(`assets/python/memory?${new URLSearchParams(files)}`, SITE).href;
}

/** The saved snapshot for `key` as a Uint8Array, or null (none, or no Cache Storage here). */
export async function savedSnapshot(key) {
  try {
    const response = await (await caches.open(CACHE_NAME)).match(key);
    return response ? unpack(new Uint8Array(await response.arrayBuffer())) : null;
  } catch {
    return null; // no Cache Storage: an insecure origin, or storage disabled
  }
}

/** Keeps `bytes` as the snapshot for `key`, in place of any other. Never rejects. */
export function saveSnapshot(key, bytes) {
  return inTurn(async (cache) => {
    await cache.put(key, new Response(pack(bytes)));
    for (const request of await cache.keys()) if (request.url !== key) await cache.delete(request);
  });
}

/** Drops the snapshot for `key` (it failed to restore). Never rejects. */
export function forgetSnapshot(key) {
  return inTurn((cache) => cache.delete(key));
}

/**
 * Runs `change(cache)` after the changes asked for before it. A failure is ignored: storage that
 * is full or disabled only means that the next visit starts from scratch.
 */
function inTurn(change) {
  pending = pending.then(() => caches.open(CACHE_NAME).then(change)).catch(() => {});
  return pending;
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
