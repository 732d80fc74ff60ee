// A lesson page's live blocks (widget/src/lessons/): which blocks run first, what goes out of date
// after an edit or a run, what a block says, where its edit is saved, and that Erase my data
// takes it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cleanSvg } from "../../widget/src/lessons/clean-svg.js";
import { ranWords, stoppedWords } from "../../widget/src/lessons/cell-words.js";
import {
  EDITED_SLACK,
  PAGE_CODE_LIMIT_S,
  blockLimit,
  canonical,
  cellState,
  goesOn,
  outOfDate,
  runFirst,
  saidFirst,
} from "../../widget/src/lessons/notebook.js";
import { erasable } from "../../widget/src/shared/erased.js";
import { cellKey, Store } from "../../widget/src/shared/storage.js";
import { fakeStorage } from "./fixtures/fake-storage.mjs";

const original = ["a = 1", "b = a + 1", "print(b)", "c = b * 2", "print(c)"];
const build = () => original.map(() => ({ from: "build" }));
const ran = (cells, codes = original) => cells.map((cell) => ({ cell, code: codes[cell] }));
/** The facts after the session ran `cells` (each shown), with `codes` in the editors. */
function facts(cells, codes = original, session = 1) {
  const shown = build();
  cells.forEach((cell, at) => (shown[cell] = { from: "run", code: codes[cell], at, session, error: false }));
  return { original, codes, history: ran(cells, codes), session, shown };
}
const states = (f) => original.map((_, i) => cellState(i, f));

test("a block runs after the blocks above it that have not run in this session", () => {
  assert.deepEqual(runFirst([], 3), [0, 1, 2]);
  assert.deepEqual(runFirst(ran([0, 1]), 3), [2]);
  assert.deepEqual(runFirst(ran([0, 1, 2, 3]), 2), []);
  assert.deepEqual(runFirst(ran([0, 2]), 4), [1, 3]);
  assert.deepEqual(runFirst([], 0), []);
});

test("what ran first is said with the blocks counted from 1", () => {
  assert.equal(saidFirst([0, 1, 2]), "ran blocks 1-3 first");
  assert.equal(saidFirst([1]), "ran block 2 first");
  assert.equal(saidFirst([0, 1]), "ran blocks 1 and 2 first");
  assert.equal(saidFirst([0, 2, 3]), "ran blocks 1, 3 and 4 first");
  assert.equal(saidFirst([0, 2, 3, 4, 7]), "ran blocks 1, 3-5 and 8 first");
  assert.equal(saidFirst([]), "");
});

test("before any run, every block shows the build's output, true to the page", () => {
  assert.deepEqual(states(facts([])), ["idle", "idle", "idle", "idle", "idle"]);
});

test("the page's code run in order keeps the build's outputs below true", () => {
  const f = facts([0, 1]);
  assert.ok(canonical(f.history, original));
  assert.deepEqual(states(f), ["done", "done", "idle", "idle", "idle"]);
});

test("an edit puts that block's output and the build's outputs below it out of date", () => {
  const codes = [...original];
  codes[1] = "b = a + 10";
  assert.deepEqual(states(facts([], codes)), ["idle", "stale", "stale", "stale", "stale"]);
  // a run's output below an edit still tells what that session did: only its own block changed
  assert.deepEqual(
    states(
      facts(
        [0, 1, 2],
        codes.map((c, i) => (i === 1 ? original[1] : c)),
      ),
    ),
    ["done", "done", "done", "idle", "idle"],
  );
  // an edit not yet run: what ran below it depended on the code that was there
  const f = facts([0, 1, 2]);
  f.codes = codes;
  assert.deepEqual(states(f), ["done", "stale", "stale", "stale", "stale"]);
});

test("an edit put back is no edit", () => {
  const f = facts([0, 1]);
  f.codes = [...original];
  assert.deepEqual(states(f), ["done", "done", "idle", "idle", "idle"]);
});

test("a run of an edited block puts every output below it out of date, and none above", () => {
  const codes = [...original];
  codes[1] = "b = a + 10";
  const f = facts([0, 1, 2, 3, 4]); // run all, then the edit, then block 2 again
  f.codes = codes;
  f.history.push({ cell: 1, code: codes[1] });
  f.shown[1] = { from: "run", code: codes[1], at: 5, session: 1, error: false };
  assert.deepEqual(states(f), ["done", "done", "stale", "stale", "stale"]);
});

test("what ran below a graph or claim of the page's code leaves it true", () => {
  const codes = [...original];
  codes[3] = "c = b * 20";
  const f = facts([0, 1, 2, 3], codes);
  assert.equal(outOfDate(1, { from: "build" }, f), false);
  assert.equal(outOfDate(3, { from: "build" }, f), true);
});

test("running a block again makes the outputs below it out of date even unedited", () => {
  const f = facts([0, 1, 2, 3]);
  f.history.push({ cell: 1, code: original[1] });
  f.shown[1] = { ...f.shown[1], at: 4 };
  assert.ok(!canonical(f.history, original));
  assert.deepEqual(states(f), ["done", "done", "stale", "stale", "stale"]);
});

test("outputs of an ended session are out of date; the build's hold again", () => {
  const f = facts([0, 1]);
  f.session = 2;
  f.history = [];
  assert.deepEqual(states(f), ["stale", "stale", "idle", "idle", "idle"]);
});

test("an error shows as error until something above it runs", () => {
  const f = facts([0, 1, 2]);
  f.shown[2].error = true;
  assert.equal(cellState(2, f), "error");
  f.history.push({ cell: 0, code: original[0] });
  assert.equal(cellState(2, f), "stale");
});

test("a graph or claim after a block goes out of date when a block above or at it runs later", () => {
  const f = facts([0, 1, 2]);
  const drawn = { from: "run", at: 1, session: 1 }; // drawn after block 1 ran
  assert.equal(outOfDate(1, drawn, f), false);
  assert.equal(outOfDate(1, { from: "build" }, f), false);
  f.history.push({ cell: 1, code: original[1] });
  assert.equal(outOfDate(1, drawn, f), true);
  assert.equal(outOfDate(1, { from: "build" }, f), true);
  assert.equal(outOfDate(3, { from: "build" }, facts([], ["a = 2", ...original.slice(1)])), true);
});

test("a run goes on past a block that raised only where the page's block raises that on purpose", () => {
  assert.ok(goesOn({ error: null }, null));
  assert.ok(goesOn({ error: { type: "AttributeError" } }, "AttributeError"));
  assert.ok(!goesOn({ error: { type: "NameError" } }, "AttributeError"));
  assert.ok(!goesOn({ error: { type: "NameError" } }, null));
});

test("a block says what ran first, its error at its line, and a cut output", () => {
  const error = { type: "ZeroDivisionError", message: "division by zero", line: 3 };
  assert.equal(
    ranWords({ error, truncated: false }, [0, 1, 2]),
    "Ran blocks 1-3 first. Line 3 of this block raised ZeroDivisionError: division by zero",
  );
  assert.equal(ranWords({ error: null, truncated: false }, []), "");
  assert.match(
    ranWords({ error: null, truncated: true, printed_lines: 100000 }),
    /cut: the block printed 100000 lines/,
  );
  const loop = { stopped: { reason: "time", answer: { error: { type: "KeyboardInterrupt", line: 2 } } } };
  assert.equal(
    stoppedWords(loop, 5),
    "Stopped after 5 s, the time limit, at line 2: does a loop never end? The session is kept: the blocks below may be out of date.",
  );
  assert.match(
    stoppedWords({ stopped: { reason: "time" } }, 5),
    /^Stopped after 5 s, the time limit: .* runs the blocks above again first\.$/,
  );
  assert.match(stoppedWords({ stopped: { reason: "stop" } }, 5), /^Stopped\. Python was restarted/);
});

test("a block's edit is saved by page and place, forgotten when put back, and Erase my data takes it", () => {
  const storage = fakeStorage();
  const store = new Store(() => storage, new EventTarget());
  const page = ["x = 0", "y = 0", "z = 0", "a = 1"];
  assert.equal(store.cellCode("gradients.md", 3, page), null);
  store.setCellCode("gradients.md", 3, "a = 2", page);
  const [key] = [...storage.items.keys()];
  assert.ok(key.endsWith(cellKey("gradients.md", 3)));
  assert.ok(erasable(key, new URL("../../widget/", import.meta.url)));
  assert.ok(!erasable(key, new URL("../../widget/other/", import.meta.url)));
  const again = new Store(() => storage, new EventTarget()); // the next visit
  assert.equal(again.cellCode("gradients.md", 3, page), "a = 2");
  assert.equal(again.cellCode("gradients.md", 2, page), null);
  assert.equal(again.earlierCellCode("gradients.md", 3, page), null, "made to the page's code as it is");
  again.setCellCode("gradients.md", 3, "a = 1", page);
  assert.equal(storage.items.size, 0);
  assert.equal(again.cellCode("gradients.md", 3, page), null);
  // "Download my work" carries exercise code, not lesson edits
  store.setCellCode("gradients.md", 0, "x = 1", page);
  assert.deepEqual(new Store(() => storage, new EventTarget()).saved().code, {});
});

test("an edit made before the course changed its block is offered back, and only an edit replaces it", () => {
  const storage = fakeStorage();
  new Store(() => storage, new EventTarget()).setCellCode("p.md", 1, "b = 2", ["a = 1", "b = 1"]);
  const store = new Store(() => storage, new EventTarget()); // after a deploy changed block 1
  const changed = ["a = 1", "b = 1.0"];
  assert.equal(store.cellCode("p.md", 1, changed), null, "not shown as the block's code");
  assert.equal(store.earlierCellCode("p.md", 1, changed), "b = 2");
  assert.equal(store.earlierCellCode("p.md", 1, ["a = 1", "b = 2"]), null, "the course's new code is the edit");
  store.setCellCode("p.md", 1, "b = 1.0", changed); // Reset of the changed block
  assert.equal(store.earlierCellCode("p.md", 1, changed), "b = 2");
  store.setCellCode("p.md", 1, "b = 3", changed); // an edit of the new code
  assert.equal(store.earlierCellCode("p.md", 1, changed), null);
  assert.equal(store.cellCode("p.md", 1, changed), "b = 3");
});

test("an edit follows its block where the course moved it; identical blocks keep their own", () => {
  const storage = fakeStorage();
  const before = ["a = 1", "b = 1", "b = 1"];
  const first = new Store(() => storage, new EventTarget());
  first.setCellCode("p.md", 1, "b = 2", before);
  assert.equal(first.cellCode("p.md", 2, before), null, "the identical block after it has no edit");
  const store = new Store(() => storage, new EventTarget()); // a block was put before them
  const after = ["new = 0", "a = 1", "c = 1", "b = 1"];
  assert.equal(store.cellCode("p.md", 3, after), "b = 2", "found at its old place");
  assert.equal(store.earlierCellCode("p.md", 1, after), null, "not offered to the block now there");
  store.setCellCode("p.md", 3, "b = 5", after);
  assert.equal(store.cellCode("p.md", 3, after), "b = 5");
  assert.deepEqual(
    [...storage.items.keys()].map((key) => key.slice(key.indexOf("cell:"))),
    ["cell:p.md:3"],
    "its old place forgotten",
  );
  store.setCellCode("p.md", 3, "b = 1", after); // Reset
  assert.equal(storage.items.size, 0);
});

test("a redrawn graph's SVG is cleaned as the build cleans it", () => {
  const svg = `<?xml version="1.0"?>\n<!-- Generated -->\n<svg width="572pt" height="248pt" viewBox="0 0 572 248">\n<g id="graph0" class="graph"><title>G</title>\n<text>x</text></g></svg>`;
  assert.equal(
    cleanSvg(svg),
    `<svg width="763" height="331" viewBox="0 0 572 248">\n<g class="graph"><text>x</text></g></svg>`,
  );
});

test("a block's time limit: the page's code its own; an edit the course's, or what its page code took here", () => {
  const block = { original: "train()", timeLimit: 5 };
  assert.equal(blockLimit({ ...block, code: "train()", long: true }), PAGE_CODE_LIMIT_S);
  assert.equal(blockLimit({ ...block, code: "train(lr=1)", long: false }), 5);
  assert.equal(blockLimit({ ...block, code: "train(lr=1)", long: false, took: 4 }), 4 * EDITED_SLACK);
  assert.equal(blockLimit({ ...block, code: "train(lr=1)", long: false, took: 0.1 }), 5);
  // the build found it long, and its page code has not run on this visit: not the course's 5 s
  assert.equal(blockLimit({ ...block, code: "train(lr=1)", long: true }), PAGE_CODE_LIMIT_S);
  assert.equal(blockLimit({ ...block, code: "train(lr=1)", long: true, took: 8 }), 8 * EDITED_SLACK);
});
