// The editor's keys and Python's indentation, on CodeMirror's state alone: a command gets
// `{state, dispatch}`, and the state has the editors' Python (python.js) and editing.js.
import assert from "node:assert/strict";
import { test } from "node:test";
import { undo } from "@codemirror/commands";
import { ensureSyntaxTree } from "@codemirror/language";
import { EditorSelection, EditorState, Transaction } from "@codemirror/state";
import { editing, keys } from "../../widget/src/editor/editing.js";
import { python } from "../../widget/src/editor/python.js";

/** An editor holding `text`, the cursor at `|` (or the selection between two of them). */
function editor(text) {
  const marks = [...text.matchAll(/\|/g)].map((match, i) => match.index - i);
  const doc = text.replaceAll("|", "");
  const selection = EditorSelection.single(marks[0], marks[1] ?? marks[0]);
  const state = EditorState.create({ doc, selection, extensions: [python, editing] });
  // parsed to the end, as an editor's view goes on parsing in the background: creating a state
  // parses for 20 ms only, which a cold parser on a busy machine can run out of
  ensureSyntaxTree(state, state.doc.length, 5000);
  const view = { state: state.update({}).state };
  view.dispatch = (...specs) => {
    view.state = (specs[0] instanceof Transaction ? specs[0] : view.state.update(...specs)).state;
  };
  return view;
}

/** Presses `key` (as editing.js binds it, `shift` for its Shift binding) in `view`. */
function press(view, key, { shift = false } = {}) {
  const binding = keys.find((b) => b.key === key);
  assert.ok(binding, key);
  assert.equal((shift ? binding.shift : binding.run)(view), true, key);
}

/** Types `text` at the cursor, a character at a time, as a keyboard does. */
function type(view, text) {
  for (const ch of text) {
    const { head } = view.state.selection.main;
    view.dispatch({ changes: { from: head, insert: ch }, selection: { anchor: head + 1 }, userEvent: "input.type" });
  }
}

/** The text with `|` at the cursor. */
function shown(view) {
  const { head } = view.state.selection.main;
  const text = view.state.doc.toString();
  return `${text.slice(0, head)}|${text.slice(head)}`;
}

test("Enter keeps the indentation, opens a block after a colon and leaves one after return or pass", () => {
  const cases = {
    "x = 1|": "x = 1\n|",
    "if x:\n    x = 1|": "if x:\n    x = 1\n    |",
    "if x:|": "if x:\n    |",
    "    for v in topo:  # each node|": "    for v in topo:  # each node\n        |",
    "def f():\n    return out|": "def f():\n    return out\n|",
    "if x:\n    if y:\n        pass|": "if x:\n    if y:\n        pass\n    |",
    "if x:\n    pass  # not yet|": "if x:\n    pass  # not yet\n|",
    "if x:\n    return (1 +\n            2)|": "if x:\n    return (1 +\n            2)\n|",
    "x = ':'|": "x = ':'\n|", // a colon in a string opens nothing
  };
  for (const [before, after] of Object.entries(cases)) {
    const view = editor(before);
    press(view, "Enter");
    assert.equal(shown(view), after, before);
  }
});

test("inside an open bracket a new line lines up after it, or hangs one level in", () => {
  const cases = {
    "y = f(a,|": "y = f(a,\n      |",
    "self.grad += (1 - t**2|": "self.grad += (1 - t**2\n              |",
    "def f():\n    total = g(|": "def f():\n    total = g(\n        |",
    "x = [1,\n     2, (3,|": "x = [1,\n     2, (3,\n         |",
    "x = (1 +\n     2)|": "x = (1 +\n     2)\n|", // closed again
    "s = '(' + t|": "s = '(' + t\n|", // a bracket in a string opens nothing
    "x = f(|)": "x = f(\n    |\n)", // between a pair, the closing one goes to a line of its own
  };
  for (const [before, after] of Object.entries(cases)) {
    const view = editor(before);
    press(view, "Enter");
    assert.equal(shown(view), after, before);
  }
});

test("typing the colon of else (and elif's space) takes the line out to its if", () => {
  const cases = [
    ["if a:\n    x = 1\n    else|", ":", "if a:\n    x = 1\nelse:|"],
    ["if a:\n    if b:\n        x = 1\n\n        else|", ":", "if a:\n    if b:\n        x = 1\n\n    else:|"],
    ["if a:\n    x = 1\n    elif|", " ", "if a:\n    x = 1\nelif |"],
    ["try:\n    x = 1\n    finally|", ":", "try:\n    x = 1\nfinally:|"],
    ["if a:\n    y = 'else'|", ":", "if a:\n    y = 'else':|"], // not a line of its own
  ];
  for (const [before, typed, after] of cases) {
    const view = editor(before);
    type(view, typed);
    assert.equal(shown(view), after, before);
  }
});

test("Tab and Shift+Tab indent and dedent every selected line by four spaces", () => {
  const view = editor("|a\n  b|");
  press(view, "Tab");
  assert.equal(view.state.doc.toString(), "    a\n      b");
  press(view, "Tab", { shift: true });
  press(view, "Tab", { shift: true });
  assert.equal(view.state.doc.toString(), "a\nb");
});

test("Backspace in the indentation goes back to the previous stop", () => {
  const view = editor("      |x");
  press(view, "Backspace");
  assert.equal(shown(view), "    |x");
  const inCode = editor("ab|c");
  press(inCode, "Backspace");
  assert.equal(shown(inCode), "a|c");
});

test("Ctrl+/ comments the lines out, and in again", () => {
  const view = editor("|  a\n\n  b|");
  press(view, "Mod-/");
  assert.equal(view.state.doc.toString(), "  # a\n\n  # b");
  press(view, "Mod-/");
  assert.equal(view.state.doc.toString(), "  a\n\n  b");
});

test("undo takes back a run of typing at once, and the selection with it", () => {
  const view = editor("|");
  for (const [at, ch] of [..."abc"].entries()) {
    view.dispatch({
      changes: { from: at, insert: ch },
      selection: { anchor: at + 1 },
      userEvent: "input.type",
      annotations: Transaction.time.of(1000 + at * 10),
    });
  }
  view.dispatch({ changes: { from: 3, insert: "!" }, userEvent: "input.type", annotations: Transaction.time.of(5000) });
  assert.equal(view.state.doc.toString(), "abc!");
  undo(view);
  assert.equal(view.state.doc.toString(), "abc");
  undo(view);
  assert.equal(shown(view), "|");
});
