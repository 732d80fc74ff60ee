// The exercise kinds' registry (widget/src/exercise/kinds.js): the one place the widget tells
// kinds apart, what it says of each, and the code keys it makes (grader/handin.py's twin).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { KINDS, kindOf } from "../../widget/src/exercise/kinds.js";
import { exerciseCodeKey } from "../../widget/src/exercise/model.js";

const ROOT = new URL("../../", import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), "utf8");

test("every kind an exercise declares is one the widget knows, and no other", () => {
  const declared = readdirSync(new URL("exercises/", ROOT), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("_"))
    .map((entry) => read(`exercises/${entry.name}/exercise.toml`).match(/^kind\s*=\s*"(\w+)"/m)[1]);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(KINDS).sort());
});

test("each kind's facts", () => {
  const facts = Object.fromEntries(
    Object.entries(KINDS).map(([name, { panel, ownCode, opTab }]) => [name, [panel, ownCode, opTab]]),
  );
  assert.deepEqual(facts, {
    op: ["op", true, true],
    checker: ["op", true, false],
    graph: ["graph", false, false],
    engine: ["engine", true, false],
  });
  assert.throws(() => kindOf({ kind: "essay" }), /knows no exercise kind "essay"/);
  assert.throws(() => kindOf({ kind: "toString" }), /knows no exercise kind/);
});

test("a tab's code key: its op's, in its design, but an engine tab's whole engine has its own", () => {
  const tab = (kind, design, ops, id = "t") => ({ id, kind, design, ops });
  assert.equal(exerciseCodeKey(tab("op", "closures", ["mul"])), "mul");
  assert.equal(exerciseCodeKey(tab("op", "local_grads", ["mul"])), "local_grads/mul");
  assert.equal(exerciseCodeKey(tab("checker", "closures", ["check"])), "check");
  assert.equal(exerciseCodeKey(tab("graph", "closures", ["add", "tanh"]), "tanh"), "tanh");
  assert.equal(exerciseCodeKey(tab("engine", "closures", ["engine"], "find-bug-2")), "engine/find-bug-2");
  assert.equal(exerciseCodeKey(tab("engine", "closures", ["engine"], "find-bug-2"), "engine"), "engine/find-bug-2");
});

test("no module but the registry compares an exercise's kind with a kind's name", () => {
  const names = Object.keys(KINDS).join("|");
  const compared = new RegExp(`(?:[!=]==?|case)\\s*["'](?:${names})["']|["'](?:${names})["']\\s*[!=]==?`);
  const src = new URL("widget/src/", ROOT);
  const offenders = readdirSync(src, { recursive: true })
    .filter((file) => file.endsWith(".js") && file !== "exercise/kinds.js")
    .flatMap((file) =>
      read(`widget/src/${file}`)
        .split("\n")
        .map((line, index) => [`widget/src/${file}:${index + 1}`, line])
        .filter(([, line]) => compared.test(line)),
    );
  assert.deepEqual(offenders, [], "ask exercise/kinds.js instead");
});
