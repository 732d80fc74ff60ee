// A graph no build has seen (exercise/fuzz-drawing.js), drawn in the shape graph-view.js paints:
// each value's four fields under `n<i>`, each op's circle under `o<i>`, an edge per use.
import assert from "node:assert/strict";
import { test } from "node:test";
import { drawCheck } from "../../widget/src/exercise/fuzz-drawing.js";

// a = Value(1.0); n0 = a * a; n1 = n0 + b
const CHECK = {
  nodes: [
    { id: 0, name: "a", op: "", inputs: [], data_text: "1.0000000" },
    { id: 1, name: "b", op: "", inputs: [], data_text: "-2.5000000" },
    { id: 2, name: "n0", op: "*", inputs: [0, 0], data_text: "1.0000000" },
    { id: 3, name: "n1", op: "+", inputs: [2, 1], data_text: "<-1.5>" },
  ],
};

for (const way of ["wide", "narrow"]) {
  test(`the ${way} drawing has every value's fields, every op and an edge per use`, () => {
    const svg = drawCheck(CHECK)[way];
    for (const id of [0, 1, 2, 3]) {
      const group = svg.match(new RegExp(`<g class="node value (leaf|result) n${id}">(.*?)</g>`));
      assert.ok(group, `value ${id}`);
      assert.equal(group[2].match(/<text /g).length, 4, "name, data, grad, verdict");
    }
    assert.match(svg, /class="node op o2">.*?>\*<\/text>/);
    assert.match(svg, /class="node op o3">.*?>\+<\/text>/);
    assert.equal(svg.match(/class="edge"/g).length, 2 + 2 + 2, "two ops: each input used, and the op to its value");
    assert.match(svg, /&lt;-1\.5&gt;/, "text is escaped");
    assert.match(svg, /viewBox="-4 -4 [\d.]+ [\d.]+"/);
    assert.doesNotMatch(svg, /NaN/);
  });
}

test("leaves come first: left of their op when wide, above it when narrow", () => {
  const { wide, narrow } = drawCheck(CHECK);
  const x = (svg, id) => Number(svg.match(new RegExp(`n${id}"><path [^>]*d="M([\\d.-]+),([\\d.-]+)`)).slice(1)[0]);
  const y = (svg, id) => Number(svg.match(new RegExp(`n${id}"><path [^>]*d="M([\\d.-]+),([\\d.-]+)`)).slice(1)[1]);
  assert.ok(x(wide, 0) < x(wide, 2) && x(wide, 2) < x(wide, 3));
  assert.ok(y(narrow, 0) < y(narrow, 2) && y(narrow, 2) < y(narrow, 3));
});
