// The editors' Python: the parser's tokens as the editors colour them (python.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { pythonLanguage } from "@codemirror/lang-python";
import { highlightTree } from "@lezer/highlight";
import { highlighter } from "../../widget/src/editor/python.js";

/** `[text, class]` for each coloured stretch of `text`, in order. */
function kinds(text) {
  const found = [];
  highlightTree(pythonLanguage.parser.parse(text), highlighter, (from, to, classes) => {
    found.push([text.slice(from, to), classes.replace(/tok-/g, "")]);
  });
  return found;
}

test("names, keywords, numbers, strings and comments each get their kind", () => {
  assert.deepEqual(kinds("self.grad += 2 * x  # why"), [
    ["self", "variableName"],
    [".", "punctuation"],
    ["grad", "propertyName"],
    ["+=", "operator"],
    ["2", "number"],
    ["*", "operator"],
    ["x", "variableName"],
    ["# why", "comment"],
  ]);
  assert.deepEqual(kinds("if True: pass"), [
    ["if", "keyword"],
    ["True", "atom"],
    ["pass", "keyword"],
  ]);
  assert.deepEqual(kinds("def f(): return None"), [
    ["def", "keyword"],
    ["f", "definition"],
    ["(", "punctuation"],
    [")", "punctuation"],
    ["return", "keyword"],
    ["None", "atom"],
  ]);
});

test("a string hides what looks like code, and a triple-quoted one spans lines", () => {
  assert.deepEqual(kinds("'a # b' + \"(\""), [
    ["'a # b'", "string"],
    ["+", "operator"],
    ['"("', "string"],
  ]);
  assert.deepEqual(kinds('x = """one\n(two"""\ny'), [
    ["x", "variableName"],
    ["=", "operator"],
    ['"""one\n(two"""', "string"],
    ["y", "variableName"],
  ]);
  assert.deepEqual(kinds('f"{x}"').map(([, kind]) => kind)[0], "string2"); // an f-string
});

test("numbers in every notation", () => {
  for (const number of ["0", "1.5", ".5", "1e-3", "0x1f", "0b101", "0o17", "2j", "1_000"])
    assert.deepEqual(kinds(number), [[number, "number"]], number);
});
