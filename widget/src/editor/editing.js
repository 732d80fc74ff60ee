/**
 * What the editor does beyond typing and moving the cursor, which the browser and CodeMirror's
 * view already handle: Python's indentation (Enter, Tab, Shift+Tab, Backspace, a dedent when
 * `else:` and its kind are typed), deleting, Ctrl/Cmd+/ for comments, select all, and undo and
 * redo, whose history (grouping, selections, input methods) is CodeMirror's own.
 */
import {
  cursorLineBoundaryBackward,
  history,
  historyKeymap,
  selectLineBoundaryBackward,
  toggleTabFocusMode,
} from "@codemirror/commands";
import { EditorSelection, findClusterBreak } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { DEDENTING, INDENT_UNIT, indentAfter, indentation } from "./python-tokens.js";

const CONTEXT = 2000; // characters before the cursor that decide a new line's indentation

/** A new line, indented as Python's block structure (and any open bracket) wants it. */
export function newline(view) {
  const { state } = view;
  const change = state.changeByRange((range) => {
    const before = state.doc.sliceString(Math.max(0, range.from - CONTEXT), range.from);
    const insert = `\n${" ".repeat(indentAfter(before))}`;
    return {
      changes: { from: range.from, to: range.to, insert },
      range: EditorSelection.cursor(range.from + insert.length),
    };
  });
  view.dispatch(state.update(change, { scrollIntoView: true, userEvent: "input" }));
  return true;
}

/** The lines the selection touches, each once. */
function selectedLines(state) {
  const lines = new Map();
  for (const range of state.selection.ranges) {
    const last = state.doc.lineAt(range.to);
    for (let line = state.doc.lineAt(range.from); ; line = state.doc.line(line.number + 1)) {
      lines.set(line.number, line);
      if (line.number >= last.number) break;
    }
  }
  return [...lines.values()];
}

/** Applies `change(line)` to each selected line; a cursor where text is inserted moves past it. */
function changeLines(view, change, userEvent) {
  const { state } = view;
  const wanted = selectedLines(state).map(change).filter(Boolean);
  if (!wanted.length) return true;
  const changes = state.changes(wanted);
  view.dispatch({ changes, selection: state.selection.map(changes, 1), userEvent, scrollIntoView: true });
  return true;
}

export const indentMore = (view) =>
  changeLines(view, (line) => ({ from: line.from, insert: " ".repeat(INDENT_UNIT) }), "input.indent");

export const indentLess = (view) =>
  changeLines(
    view,
    (line) => {
      const spaces = /^ */.exec(line.text)[0].length;
      return spaces ? { from: line.from, to: line.from + Math.min(spaces, INDENT_UNIT) } : null;
    },
    "delete.dedent",
  );

/**
 * Deletes each selection, or from each cursor to where `target(line, column)` says (a column
 * of the cursor's line; the line break when the cursor is at its end and it goes forward).
 */
function deleteBy(view, forward, target) {
  const { state } = view;
  const change = state.changeByRange((range) => {
    let { from, to } = range;
    if (range.empty) {
      const line = state.doc.lineAt(range.head);
      const column = range.head - line.from;
      const edge = forward ? column === line.length : column === 0;
      const end = edge ? range.head + (forward ? 1 : -1) : line.from + target(line.text, column);
      [from, to] = [Math.min(range.head, end), Math.max(range.head, end)];
      [from, to] = [Math.max(0, from), Math.min(state.doc.length, to)];
    }
    return { changes: { from, to }, range: EditorSelection.cursor(from) };
  });
  const userEvent = forward ? "delete.forward" : "delete.backward";
  view.dispatch(state.update(change, { userEvent, scrollIntoView: true }));
  return true;
}

const WORD = /\w/;
/** The column at the other end of the word (or run of other marks) beside `column`. */
function wordEdge(text, column, forward) {
  const step = forward ? 1 : -1;
  const at = (i) => text[forward ? i : i - 1];
  let i = column;
  while (i > 0 && i < text.length + 1 && at(i) === " ") i += step;
  const word = at(i) !== undefined && WORD.test(at(i));
  while (at(i) !== undefined && at(i) !== " " && WORD.test(at(i)) === word) i += step;
  return i;
}

// Backspace in the indentation before the cursor goes back to the previous indent stop
export const deleteBackward = (view) =>
  deleteBy(view, false, (text, column) => {
    const before = text.slice(0, column);
    if (/^ +$/.test(before)) return Math.ceil(column / INDENT_UNIT - 1) * INDENT_UNIT;
    return findClusterBreak(text, column, false);
  });
const deleteForward = (view) => deleteBy(view, true, (text, column) => findClusterBreak(text, column, true));
const deleteWordBackward = (view) => deleteBy(view, false, (text, column) => wordEdge(text, column, false));
const deleteWordForward = (view) => deleteBy(view, true, (text, column) => wordEdge(text, column, true));

/** Comments the selected lines out, or in again when every one of them is a comment. */
export function toggleComment(view) {
  const lines = selectedLines(view.state).filter((line) => line.text.trim());
  if (!lines.length) return true;
  if (lines.every((line) => line.text.trimStart().startsWith("#"))) {
    const uncomment = (line) => {
      const at = line.from + indentationLength(line.text);
      if (line.text[at - line.from] !== "#") return null;
      return { from: at, to: at + (line.text[at - line.from + 1] === " " ? 2 : 1) };
    };
    return changeLines(view, uncomment, "delete.uncomment");
  }
  const column = Math.min(...lines.map((line) => indentation(line.text)));
  const comment = (line) => line.text.trim() && { from: line.from + column, insert: "# " };
  return changeLines(view, comment, "input.comment");
}

function indentationLength(text) {
  return /^\s*/.exec(text)[0].length;
}

/** Typing the colon of `else:` (and `elif`, `except`, `finally`) takes the line out one level. */
const dedentOnColon = EditorView.inputHandler.of((view, from, to, text) => {
  if (text !== ":" || view.state.selection.ranges.length > 1) return false;
  const line = view.state.doc.lineAt(from);
  const typed = `${line.text.slice(0, from - line.from)}:${line.text.slice(to - line.from)}`;
  if (!DEDENTING.test(typed)) return false;
  const above = codeAbove(view.state.doc, line.number);
  if (above === null) return false;
  const current = indentation(typed);
  const wanted = Math.max(0, indentAfter(above) - INDENT_UNIT);
  if (wanted >= current) return false;
  const spaces = indentationLength(typed);
  view.dispatch({
    changes: [
      { from: line.from, to: line.from + spaces, insert: " ".repeat(wanted) },
      { from, to, insert: ":" },
    ],
    selection: { anchor: from + 1 + wanted - spaces },
    userEvent: "input.type",
  });
  return true;
});

/** The nearest line above line `number` that is not blank, or null. */
function codeAbove(doc, number) {
  for (let above = number - 1; above >= 1; above--) {
    const { text } = doc.line(above);
    if (text.trim()) return text;
  }
  return null;
}

const selectAll = (view) => {
  view.dispatch({ selection: { anchor: 0, head: view.state.doc.length }, userEvent: "select" });
  return true;
};

/**
 * Everything above, for an editable view. Tab indents; Esc then Tab leaves the editor, and so
 * does Tab once Ctrl+M has made it move focus (CodeMirror's tab-focus mode).
 */
export const editing = [
  history(),
  dedentOnColon,
  keymap.of([
    ...historyKeymap,
    // Tab indents; Ctrl+M (Shift+Alt+M on a Mac) makes it move focus instead, and back
    { key: "Ctrl-m", mac: "Shift-Alt-m", run: toggleTabFocusMode },
    // Home goes to the code first, then to the line's start
    { key: "Home", run: cursorLineBoundaryBackward, shift: selectLineBoundaryBackward, preventDefault: true },
    { key: "Enter", run: newline },
    { key: "Tab", run: indentMore, shift: indentLess },
    { key: "Mod-]", run: indentMore },
    { key: "Mod-[", run: indentLess },
    { key: "Backspace", run: deleteBackward, shift: deleteBackward },
    { key: "Delete", run: deleteForward },
    { key: "Mod-Backspace", mac: "Alt-Backspace", run: deleteWordBackward },
    { key: "Mod-Delete", mac: "Alt-Delete", run: deleteWordForward },
    { key: "Mod-/", run: toggleComment },
    { key: "Mod-a", run: selectAll },
  ]),
];
