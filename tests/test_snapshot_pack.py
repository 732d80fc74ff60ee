"""Python's memory snapshot is kept without its all-zero pages (widget/src/snapshot.js): what
`unpack` gives back is exactly what `pack` was given, and an entry that is not whole is refused."""

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE = json.dumps((ROOT / "widget" / "src" / "snapshot.js").as_uri())
# each case: [length, [[offset, byte], ...]] - a memory of `length` zeros but for those bytes
CASES = {
    "all zeros": [3 * 4096, []],
    "no zero page": [2 * 4096 + 10, [[0, 1], [4096, 2], [8192 + 9, 3]]],
    "sparse": [40 * 4096, [[5, 7], [10 * 4096, 255], [10 * 4096 + 4095, 1], [39 * 4096 + 1, 9]]],
    "a partial last page": [5 * 4096 + 16, [[4 * 4096 + 3, 4]]],
    "empty": [0, []],
}
SCRIPT = f"""
import {{ pack, unpack }} from {MODULE};
import {{ readFileSync }} from "node:fs";
const out = {{}};
for (const [name, [length, bytes]] of Object.entries(JSON.parse(readFileSync(0, "utf8")))) {{
  const memory = new Uint8Array(length);
  for (const [offset, value] of bytes) memory[offset] = value;
  const packed = pack(memory);
  const back = unpack(packed);
  const refused = (damaged) => {{
    try {{ unpack(damaged); return false; }} catch {{ return true; }}
  }};
  out[name] = {{
    same: back.length === memory.length && back.every((value, i) => value === memory[i]),
    packed: packed.length,
    truncatedRefused: packed.length > 8 && refused(packed.subarray(0, packed.length - 1)),
    extendedRefused: refused(new Uint8Array([...packed, 0])),
  }};
}}
process.stdout.write(JSON.stringify(out));
"""


def run_cases():
    done = subprocess.run(["node", "--input-type=module", "-e", SCRIPT], input=json.dumps(CASES),
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_unpack_gives_back_what_pack_was_given():
    assert all(result["same"] for result in run_cases().values())


def test_zero_pages_are_left_out_and_the_rest_kept():
    results = run_cases()
    header = 8  # length and number of runs, 4 bytes each
    assert results["all zeros"]["packed"] == header
    assert results["sparse"]["packed"] == header + 3 * 8 + 3 * 4096  # pages 0, 10 and 39
    # page 4 and the partial page after it make one run
    assert results["a partial last page"]["packed"] == header + 8 + 4096 + 16
    assert results["no zero page"]["packed"] == header + 8 + 2 * 4096 + 10


def test_an_entry_that_is_not_whole_is_refused():
    for name, result in run_cases().items():
        assert result["extendedRefused"], name
        if name not in ("all zeros", "empty"):
            assert result["truncatedRefused"], name
