/**
 * Python's memory without its all-zero pages: two thirds of a snapshot is zeros, so an entry
 * that leaves them out is a third of the bytes to store and read. Pure functions.
 */
const PAGE = 4096;

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
