// The page's assembly of the Value class: the rules it shares with grader/scaffold.py
// (tests/test_js_parity.py holds the two to each other on every known answer).
import assert from "node:assert/strict";
import { test } from "node:test";
import { assemble, hasCode, indentBody, isStub, lines } from "../../widget/src/shared/scaffold.js";

test("lines end at \\r\\n, \\r and \\n only, as Python's tokenizer ends them", () => {
  assert.deepEqual(lines("a\r\nb\rc\nd"), ["a", "b", "c", "d"]);
  assert.deepEqual(lines("a\u2028b\fc\x85d"), ["a\u2028b\fc\x85d"]);
});

test("code is anything but blank lines, comments and pass", () => {
  assert.equal(hasCode("# only\n\npass\n"), false);
  assert.equal(hasCode("  x = 1"), true);
  assert.equal(isStub("", "# stub\npass"), true);
  assert.equal(isStub("# stub\npass\n\n", "# stub\npass"), true);
  assert.equal(isStub("self.grad += 1", "# stub\npass"), false);
});

test("a body is indented into its slot; one of blanks and comments gets a pass", () => {
  assert.equal(indentBody("pass\n", 2), "  pass");
  assert.equal(indentBody("a = 1\n\n\tb = 2\n", 4), "    a = 1\n\n        b = 2");
  assert.equal(indentBody("# nothing", 2), "  # nothing\n  pass");
  assert.equal(indentBody("", 2), "  pass");
  assert.equal(indentBody("", 2, true), "");
  assert.equal(indentBody("(1,\n 2)", 2, true), "  (1,\n   2)");
});

test("assemble joins the segments and says which lines each slot fills", () => {
  const design = { segments: [{ text: "class V:\n    def f():\n" }, { slot: "f", indent: 8 }, { text: "end\n" }] };
  const { text, lines: where } = assemble(design, { f: "a\nb" });
  assert.equal(text, "class V:\n    def f():\n        a\n        b\nend\n");
  assert.deepEqual(where, { f: [3, 4] });
});
