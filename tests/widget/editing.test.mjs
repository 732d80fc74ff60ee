// The editor's commands, on CodeMirror's state alone: a command gets `{state, dispatch}`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { history, undo } from "@codemirror/commands";
import { EditorSelection, EditorState, Transaction } from "@codemirror/state";
import { deleteBackward, indentLess, indentMore, newline, toggleComment } from "../../widget/src/editor/editing.js";

/** An editor holding `text`, the cursor at `|` (or the selection between two of them). */
function editor(text, extensions = []) {
  const marks = [...text.matchAll(/\|/g)].map((match, i) => match.index - i);
  const doc = text.replaceAll("|", "");
  const selection = EditorSelection.single(marks[0], marks[1] ?? marks[0]);
  const view = { state: EditorState.create({ doc, selection, extensions }) };
  view.dispatch = (...specs) => {
    view.state = (specs[0] instanceof Transaction ? specs[0] : view.state.update(...specs)).state;
  };
  return view;
}

/** The text with `|` at the cursor. */
function shown(view) {
  const { head } = view.state.selection.main;
  const text = view.state.doc.toString();
  return `${text.slice(0, head)}|${text.slice(head)}`;
}

test("Enter keeps the indentation, opens a block after a colon and lines up in brackets", () => {
  const cases = {
    "x = 1|": "x = 1\n|",
    "    x = 1|": "    x = 1\n    |",
    "if x:|": "if x:\n    |",
    "    return out|": "    return out\n|",
    "y = f(a,|": "y = f(a,\n      |",
  };
  for (const [before, after] of Object.entries(cases)) {
    const view = editor(before);
    newline(view);
    assert.equal(shown(view), after, before);
  }
});

test("Tab and Shift+Tab indent and dedent every selected line by four spaces", () => {
  const view = editor("|a\n  b|");
  indentMore(view);
  assert.equal(view.state.doc.toString(), "    a\n      b");
  indentLess(view);
  indentLess(view);
  assert.equal(view.state.doc.toString(), "a\nb");
});

test("Backspace in the indentation goes back to the previous stop", () => {
  const view = editor("      |x");
  deleteBackward(view);
  assert.equal(shown(view), "    |x");
  const inCode = editor("ab|c");
  deleteBackward(inCode);
  assert.equal(shown(inCode), "a|c");
});

test("Ctrl+/ comments the lines out, and in again", () => {
  const view = editor("|  a\n\n  b|");
  toggleComment(view);
  assert.equal(view.state.doc.toString(), "  # a\n\n  # b");
  toggleComment(view);
  assert.equal(view.state.doc.toString(), "  a\n\n  b");
});

test("undo takes back a run of typing at once, and the selection with it", () => {
  const view = editor("|", [history()]);
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
