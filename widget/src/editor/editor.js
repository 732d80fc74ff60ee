/** CodeMirror 6 set up for Python closure bodies, and a read-only view for code to read. */
import { bracketMatching } from "@codemirror/language";
import { EditorState, Prec, StateEffect, StateField, Transaction } from "@codemirror/state";
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { editing } from "./editing.js";
import { folding } from "./folds.js";
import { RUN_KEY } from "./keys.js";
import { python } from "./python.js";

const setMarks = StateEffect.define();

/** Line decorations (`{line, className}`) that a caller sets and any edit clears. */
const lineMarks = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const effect of tr.effects) if (effect.is(setMarks)) return effect.value;
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const common = [lineNumbers(), python, lineMarks];

const START_MARGIN = 24; // px: the cursor this far inside the editor's left part brings the starts back

/**
 * The editor scrolled back to the start of its lines whenever the cursor is in view from
 * there: CodeMirror scrolls sideways to follow the cursor along a long line, and never back, so
 * that after Enter (or on a phone, after typing) the start of every line stayed hidden.
 */
const backToLineStarts = EditorView.updateListener.of((update) => {
  if (!update.selectionSet && !update.docChanged && !update.geometryChanged) return;
  const view = update.view;
  view.requestMeasure({
    read() {
      const scroller = view.scrollDOM;
      if (scroller.scrollLeft === 0) return false;
      const cursor = view.coordsAtPos(view.state.selection.main.head);
      if (!cursor) return false;
      const x = cursor.left - view.contentDOM.getBoundingClientRect().left; // from the lines' start
      const visible = scroller.clientWidth - view.contentDOM.offsetLeft; // beside the gutter
      return x < visible - START_MARGIN;
    },
    write(back) {
      if (back) view.scrollDOM.scrollLeft = 0;
    },
  });
});

/**
 * An editable editor. `onChange(text)` runs on every edit, `onRun()` on Ctrl/Cmd+Enter.
 * `label` names the editor for screen readers.
 */
export function createEditor({ parent, doc, label, onChange, onRun }) {
  return new EditorView({
    parent,
    doc,
    extensions: [
      common,
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      bracketMatching(),
      // no soft wrap: in Python indentation is meaning, so long lines scroll sideways
      Prec.highest(
        keymap.of([
          {
            key: RUN_KEY.binding,
            run: () => {
              onRun();
              return true;
            },
          },
        ]),
      ),
      editing,
      folding, // only what a caller folds (folds.js), never by itself
      backToLineStarts,
      // tabindex: what scrolls sideways must be focusable, and axe does not count contenteditable
      EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChange(update.state.doc.toString());
      }),
    ],
  });
}

/** A read-only, highlighted view of `doc`. */
export function createViewer({ parent, doc, label }) {
  return new EditorView({
    parent,
    doc,
    extensions: [
      common,
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      // focusable, so that a keyboard can scroll a line too long for the screen
      EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
    ],
  });
}

/** Replaces the whole text of `view` (one undoable step when the view has history). */
export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/**
 * Shows `text` as saved by another browser tab: only what differs is replaced, so the cursor
 * stays where it was outside the change; it is not an undo step of this tab's own. True if the
 * text changed.
 */
export function setTextFromElsewhere(view, text) {
  const old = view.state.doc.toString();
  if (old === text) return false;
  let from = 0;
  while (from < old.length && from < text.length && old[from] === text[from]) from++;
  let [oldEnd, newEnd] = [old.length, text.length];
  while (oldEnd > from && newEnd > from && old[oldEnd - 1] === text[newEnd - 1])
    [oldEnd, newEnd] = [oldEnd - 1, newEnd - 1];
  view.dispatch({
    changes: { from, to: oldEnd, insert: text.slice(from, newEnd) },
    annotations: [Transaction.remote.of(true), Transaction.addToHistory.of(false)],
  });
  return true;
}

/** Marks lines `[{line, className}]` (1-based) until the next edit; an empty list clears them. */
export function markLines(view, marks) {
  const decorations = marks
    .filter(({ line }) => line >= 1 && line <= view.state.doc.lines)
    .map(({ line, className }) => Decoration.line({ class: className }).range(view.state.doc.line(line).from));
  view.dispatch({ effects: setMarks.of(Decoration.set(decorations, true)) });
}
