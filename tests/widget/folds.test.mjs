// Spoiler folds (widget/src/editor/folds.js): where a whole engine's closures' bodies are, by
// method, as the find-the-bug editor folds them for the tabs a learner has not passed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { closureBodies } from "../../widget/src/editor/folds.js";

const ENGINE = `class Value:
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad

            other.grad += out.grad
        out._backward = _backward
        return out

    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data))
        out = Value(s, (self,), "sigmoid")

        def _backward():
            self.grad += s * (1 - s) * out.grad

    def backward(self):
        def build(v):
            pass
`;

test("each closure's body is found under its method, blank lines and all, and nothing else", () => {
  const bodies = closureBodies(ENGINE);
  assert.deepEqual(
    bodies.map(({ method }) => method),
    ["__add__", "sigmoid"],
  );
  const [add, sigmoid] = bodies.map(({ from, to }) => ENGINE.slice(from, to));
  assert.equal(add, "\n            self.grad += out.grad\n\n            other.grad += out.grad");
  assert.equal(sigmoid, "\n            self.grad += s * (1 - s) * out.grad");
});

test("a closure with no body yet is left unfolded", () => {
  assert.deepEqual(closureBodies("class V:\n    def exp(self):\n        def _backward():\n        return 1\n"), []);
});
