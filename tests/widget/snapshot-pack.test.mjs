// Python's memory snapshot is kept without its all-zero pages: unpack gives back exactly what
// pack was given, and an entry that is not whole is refused.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pack, unpack } from "../../widget/src/worker/snapshot-pack.js";

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
