// Python's memory snapshot is kept without its all-zero pages: unpack gives back exactly what
// pack was given, unpackInto writes any part of it over other bytes, and an entry that is not
// whole is refused.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pack, unpack, unpackedLength, unpackInto } from "../../widget/src/worker/snapshot-pack.js";

const PAGE = 4096;
const HEADER = 8; // the length and the number of runs, 4 bytes each
/** A memory of `length` zeros but for `bytes` ([offset, value] pairs). */
function memory(length, bytes = []) {
  const found = new Uint8Array(length);
  for (const [offset, value] of bytes) found[offset] = value;
  return found;
}
const CASES = {
  "all zeros": memory(3 * PAGE),
  "no zero page": memory(2 * PAGE + 10, [
    [0, 1],
    [PAGE, 2],
    [2 * PAGE + 9, 3],
  ]),
  sparse: memory(40 * PAGE, [
    [5, 7],
    [10 * PAGE, 255],
    [10 * PAGE + 4095, 1],
    [39 * PAGE + 1, 9],
  ]),
  "a partial last page": memory(5 * PAGE + 16, [[4 * PAGE + 3, 4]]),
  empty: memory(0),
};

test("unpack gives back what pack was given", () => {
  for (const [name, bytes] of Object.entries(CASES)) assert.deepEqual(unpack(pack(bytes)), bytes, name);
});

test("a memory that does not start on a 4-byte boundary packs the same", () => {
  for (const [name, bytes] of Object.entries(CASES)) {
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    assert.deepEqual(pack(shifted), pack(bytes), name);
  }
});

test("zero pages are left out and the rest kept", () => {
  assert.equal(pack(CASES["all zeros"]).length, HEADER);
  assert.equal(pack(CASES.sparse).length, HEADER + 3 * 8 + 3 * PAGE); // pages 0, 10 and 39
  // page 4 and the partial page after it make one run
  assert.equal(pack(CASES["a partial last page"]).length, HEADER + 8 + PAGE + 16);
  assert.equal(pack(CASES["no zero page"]).length, HEADER + 8 + 2 * PAGE + 10);
});

test("an entry that is not whole is refused", () => {
  for (const [name, bytes] of Object.entries(CASES)) {
    const packed = pack(bytes);
    assert.throws(() => unpack(new Uint8Array([...packed, 0])), /damaged/, name);
    if (packed.length > HEADER) assert.throws(() => unpack(packed.subarray(0, packed.length - 1)), /damaged/, name);
  }
});

test("unpackInto writes the bytes from any offset over what the target held", () => {
  for (const [name, bytes] of Object.entries(CASES)) {
    const packed = pack(bytes);
    assert.equal(unpackedLength(packed), bytes.length, name);
    for (const start of [0, 3, PAGE, 10 * PAGE + 1, bytes.length]) {
      if (start > bytes.length) continue;
      // zero pages left out are written as zeros over a target full of other bytes
      const target = new Uint8Array(bytes.length - start).fill(0xaa);
      assert.deepEqual(unpackInto(packed, target, start), bytes.subarray(start), `${name} from ${start}`);
    }
  }
});

test("unpackInto writes no more than there is, or than the target holds", () => {
  const bytes = CASES.sparse;
  const packed = pack(bytes);
  const longer = unpackInto(packed, new Uint8Array(bytes.length + 8).fill(1), 0);
  assert.deepEqual(longer.subarray(0, bytes.length), bytes);
  assert.deepEqual([...longer.subarray(bytes.length)], new Array(8).fill(1));
  const header = unpackInto(packed, new Uint8Array(12).fill(1), 0);
  assert.deepEqual(header, bytes.subarray(0, 12));
});

test("unpackInto writes nothing from an entry that is not whole", () => {
  const packed = pack(CASES.sparse);
  const target = new Uint8Array(CASES.sparse.length).fill(1);
  assert.throws(() => unpackInto(packed.subarray(0, packed.length - 1), target), /damaged/);
  assert.ok(target.every((byte) => byte === 1));
  // runs out of order
  const swapped = pack(CASES.sparse);
  const words = new DataView(swapped.buffer);
  const [first, second] = [words.getUint32(8, true), words.getUint32(16, true)];
  words.setUint32(8, second, true);
  words.setUint32(16, first, true);
  assert.throws(() => unpackInto(swapped, target), /damaged/);
});
