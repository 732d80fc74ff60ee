import assert from "node:assert/strict";
import { test } from "node:test";

import { formulaReached, toldOps } from "../../widget/src/exercise/ladder.js";

const op = (name, design = "closures") => ({ id: name, kind: "op", design, ops: [name], hints: ["a", "b", "c"] });
const graph = { id: "diamond", kind: "graph", design: "closures", ops: ["add", "mul", "tanh"], hints: ["a"] };
const fresh = { hints: 0, solved: false };

test("the formula rung is the last hint, or a pass", () => {
  assert.equal(formulaReached(op("mul"), { hints: 2 }), false);
  assert.equal(formulaReached(op("mul"), { hints: 3 }), true);
  assert.equal(formulaReached(op("mul"), { hints: 0, solved: true }), true);
});

test("an op tab tells its own rule only from its formula rung on", () => {
  assert.deepEqual(
    toldOps(op("mul"), [], () => fresh),
    [],
  );
  assert.deepEqual(
    toldOps(op("mul"), [], () => ({ hints: 3 })),
    ["mul"],
  );
});

test("a graph tab tells the rule of each op whose own tab reached its rung, in its design", () => {
  const tabs = [op("add"), op("mul"), op("tanh"), op("mul", "local_grads"), graph];
  const progress = { add: { hints: 3 }, mul: fresh, tanh: { hints: 0, solved: true } };
  const progressOf = (tab) => (tab.design === "closures" ? (progress[tab.id] ?? fresh) : { hints: 3 });
  assert.deepEqual(toldOps(graph, tabs, progressOf), ["add", "tanh"]);
});

test("a checker tab tells its formulas from its own formula rung on", () => {
  const checker = {
    id: "gradient-check",
    kind: "checker",
    design: "closures",
    ops: ["checker"],
    hints: ["a", "b", "c"],
  };
  assert.deepEqual(
    toldOps(checker, [op("mul"), checker], () => ({ hints: 2 })),
    [],
  );
  assert.deepEqual(
    toldOps(checker, [op("mul"), checker], () => ({ hints: 3 })),
    ["checker"],
  );
});
