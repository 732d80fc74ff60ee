// The editors' Python: tokens for colours and brackets, and where a new line is indented.
import assert from "node:assert/strict";
import { test } from "node:test";
import { indentAfter, indentation, tokenize } from "../../widget/src/editor/python-tokens.js";

const kinds = (text) => tokenize(text).map(([from, to, type]) => [text.slice(from, to), type]);

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
    ["True", "bool"],
    [":", "punctuation"],
    ["pass", "keyword"],
  ]);
  assert.deepEqual(kinds("def f(): return None"), [
    ["def", "keyword"],
    ["f", "variableName tok-definition"],
    ["(", "punctuation"],
    [")", "punctuation"],
    [":", "punctuation"],
    ["return", "keyword"],
    ["None", "atom"],
  ]);
});

test("a string hides what looks like code, and a triple-quoted one spans lines", () => {
  assert.deepEqual(kinds("'a # b' + f\"(\""), [
    ["'a # b'", "string"],
    ["+", "operator"],
    ['f"("', "string"],
  ]);
  const text = 'x = """one\n(two"""\ny';
  assert.deepEqual(
    kinds(text).map(([, type]) => type),
    ["variableName", "operator", "string", "string", "variableName"],
  );
});

test("numbers in every notation", () => {
  for (const number of ["0", "1.5", ".5", "1e-3", "0x1f", "0b101", "0o17", "2j", "1_000"])
    assert.deepEqual(kinds(number), [[number, "number"]], number);
});

test("indentation counts columns, a tab as a whole unit", () => {
  assert.equal(indentation("    x"), 4);
  assert.equal(indentation("\tx"), 4);
  assert.equal(indentation("  \tx"), 4);
  assert.equal(indentation("x"), 0);
});

test("a new line opens a block after a colon and leaves one after return or pass", () => {
  assert.equal(indentAfter("if x:"), 4);
  assert.equal(indentAfter("    for v in topo:  # each node"), 8);
  assert.equal(indentAfter("    return out"), 0);
  assert.equal(indentAfter("        pass"), 4);
  assert.equal(indentAfter("    x = 1"), 4);
  assert.equal(indentAfter("x = ':'"), 0); // a colon in a string opens nothing
});

test("inside an open bracket a new line lines up after it, or hangs one level in", () => {
  assert.equal(indentAfter("self.grad += (1 - t**2"), "self.grad += (".length);
  assert.equal(indentAfter("    total = f("), 8);
  assert.equal(indentAfter("x = [1,\n     2, (3,"), "     2, (".length);
  assert.equal(indentAfter("x = (1 +\n     2)"), 0); // closed again
  assert.equal(indentAfter("s = '(' + t"), 0);
});
