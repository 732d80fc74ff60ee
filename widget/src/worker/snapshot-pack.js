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
  // whole pages are read 4 bytes a step: a 30 MB memory is scanned in ~6 ms, not ~25
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, bytes.length >> 2);
  for (let at = 0; at < bytes.length; at += PAGE) {
    const end = Math.min(at + PAGE, bytes.length);
    if (end - at === PAGE && isZero(words, at / 4, end / 4)) continue;
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
  return unpackInto(packed, new Uint8Array(runsOf(packed).length));
}

/**
 * Writes the bytes `pack` was given, from `start` on, into `target` (as many as it holds, and
 * no more than there are): zeros too, for a target that holds other bytes. Returns `target`;
 * throws, before writing anything, on an entry that is not whole.
 */
export function unpackInto(packed, target, start = 0) {
  const { length, runs } = runsOf(packed);
  const end = Math.min(length, start + target.length);
  const zero = (from, to) => from < to && target.fill(0, from - start, to - start);
  let at = start;
  for (const [offset, size, from] of runs) {
    const [first, last] = [Math.max(offset, start), Math.min(offset + size, end)];
    if (first >= last) continue;
    zero(at, first);
    target.set(packed.subarray(from + first - offset, from + last - offset), first - start);
    at = last;
  }
  zero(at, end);
  return target;
}

/** How many bytes `pack` was given; throws on an entry that is not whole. */
export function unpackedLength(packed) {
  return runsOf(packed).length;
}

/** `{length, runs}` of `packed`, each run `[offset, size, from]` in order; throws on an entry
 * that is not whole. */
function runsOf(packed) {
  const words = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const word = (index) => words.getUint32(index * 4, true);
  const damaged = () => new Error("damaged snapshot");
  if (packed.length < 8) throw damaged();
  const [length, count] = [word(0), word(1)];
  let from = (2 + 2 * count) * 4;
  if (from > packed.length) throw damaged();
  const runs = [];
  for (let run = 0, after = 0; run < count; run++) {
    const [offset, size] = [word(2 + 2 * run), word(3 + 2 * run)];
    if (offset < after || from + size > packed.length || offset + size > length) throw damaged();
    runs.push([offset, size, from]);
    from += size;
    after = offset + size;
  }
  if (from !== packed.length) throw damaged();
  return { length, runs };
}

function isZero(words, start, end) {
  for (let at = start; at < end; at++) if (words[at] !== 0) return false;
  return true;
}
