// microgpt's warnings send the learner to the Local gradients tab of the op at fault (not the
// closures page), say when a "break it" switch put the wrong tuple there, say the starter tuples
// once, and give numbers, never a local derivative's formula.
import assert from "node:assert/strict";
import { test } from "node:test";
import { culpritText, problemText } from "../../widget/src/microgpt/words.js";
import { hashTab } from "../../widget/src/exercise/model.js";
import { text } from "../../widget/src/exercise/where.js";

const OPS = ["add", "mul", "pow", "log", "exp", "relu"].map((op) => ({
  op,
  design: "local_grads",
  exercise: `local-${op}`,
  label: { add: "__add__", mul: "__mul__", pow: "__pow__" }[op] ?? op,
}));
const context = (broken = [], starters = []) => ({ trainedOps: OPS, broken, starters });
// each link's text and page (the last folder of its path: the site's root differs in Node)
const links = (parts) =>
  parts.filter((part) => part.href).map((part) => [part.text, new URL(part.href).pathname.split("/").at(-2)]);
const tabs = (parts) =>
  parts.filter((part) => part.href?.includes("#")).map((part) => hashTab(new URL(part.href).hash));

// what microgpt/culprit.py reports of a log tuple (x,) at x = 0.04
const LOG = { op: "log", inputs: [0.04], given: [0.04], measured: 25, input: 0 };
const MUL = { op: "mul", inputs: [2, 3], given: [2, 3], measured: 3, input: 0 };
const STARTERS = OPS.map(({ op }) => ({ op, inputs: [1], given: [0], measured: 1, input: 0 }));

test("a wrong tuple of the learner's links its tab on the Local gradients page", () => {
  const parts = culpritText([MUL], "start", context());
  assert.match(
    text(parts),
    /__mul__'s local gradient for self disagrees with a nudge: at self = 2\.0000000, other = 3\.0000000, the tuple gives 2\.0000000 where .* measures 3\.0000000\./,
  );
  assert.match(text(parts), /Fix it in the __mul__ tab on the Local gradients page\./);
  assert.deepEqual(links(parts), [
    ["__mul__", "local-gradients"],
    ["Local gradients", "local-gradients"],
  ]);
  assert.deepEqual(tabs(parts), ["local-mul"]);
  assert.doesNotMatch(text(parts), /exercise page|closures/);
});

test("a tuple a break-it switch put in place is the switch's, not the learner's", () => {
  const parts = culpritText([LOG], "start", context(["wrong_log"]));
  assert.match(text(parts), /The “break it” switch “log returns \(x,\)” put that tuple there, not your code/);
  assert.deepEqual(links(parts), []);
  assert.doesNotMatch(text(parts), /Fix it|Training goes on/);
  const worse = text(culpritText([LOG], "worse", context(["wrong_log"])));
  assert.match(worse, /The culprit: log's local gradient .* switch “log returns \(x,\)” put that tuple there/);
});

test("the starter tuples are said once, linked, not as six disagreements", () => {
  const all = OPS.map(({ op }) => op);
  const parts = culpritText(STARTERS, "start", context([], all));
  assert.doesNotMatch(text(parts), /disagrees/);
  assert.match(
    text(parts),
    /^Still the starter tuples: __add__, __mul__, __pow__, log, exp, relu, so they pass no gradient back\./,
  );
  assert.deepEqual(tabs(parts), ["local-add", "local-mul", "local-pow", "local-log", "local-exp", "local-relu"]);
  const stopped = problemText(
    { problem: { step: 1, raised: null, stalled: true, disagree: STARTERS } },
    1,
    10,
    context([], all),
  );
  assert.match(
    text(stopped),
    /^Training stopped at step 1: no gradient reached any weight, so nothing can learn\. Still the starter tuples/,
  );
});

test("one starter among passed tuples is said alone, and a switch over it is the switch's", () => {
  assert.match(
    text(culpritText([STARTERS[5]], "start", context([], ["relu"]))),
    /^Still the starter tuple: relu, so it passes/,
  );
  const switched = text(culpritText([LOG], "start", context(["wrong_log"], ["log"])));
  assert.match(switched, /switch “log returns \(x,\)”/);
  assert.doesNotMatch(switched, /starter/);
});

test("nothing found at the start says nothing", () => {
  assert.deepEqual(culpritText([], "start", context()), []);
});

test("when every tuple agrees, the loop's switch is named as a switch", () => {
  const parts = problemText(
    { problem: { step: 90, raised: "ZeroDivisionError", disagree: [] } },
    90,
    10,
    context(["no_zero_grad"]),
  );
  assert.match(text(parts), /training loop is to blame: the “break it” switch “Never set p\.grad = 0” is on/);
});

test("no warning states a local derivative's formula: numbers only", () => {
  const every = [
    culpritText([LOG, MUL], "start", context()),
    culpritText([LOG], "worse", context(["wrong_log"])),
    culpritText(STARTERS, "start", context([], ["add", "mul"])),
    problemText({ problem: { step: 3, raised: null, disagree: [LOG] } }, 3, 10, context()),
  ].map(text);
  for (const said of every) assert.doesNotMatch(said, /1\s*\/\s*x|e\^x|eˣ|other\.data|self\.data|n\s*\*\s*x/, said);
});

test("a request past the time limit is said with the limit and what does it", () => {
  const parts = problemText({ stopped: { reason: "time" } }, 0, 5, context());
  assert.match(text(parts), /^Training stopped at step 0: a request took longer than 5 seconds, the time limit\./);
});
