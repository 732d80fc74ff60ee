/** CodeMirror 6 set up for Python closure bodies, and a read-only view for code to read. */
import { bracketMatching } from "@codemirror/language";
import {
  countColumn,
  EditorState,
  Prec,
  RangeSetBuilder,
  StateEffect,
  StateField,
  Transaction,
} from "@codemirror/state";
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  ViewPlugin,
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

/** Each indented line's indentation, `--indent` on its element: widget.css starts the wrapped
 * parts of a long line under its first character, so that Python's indentation stays in sight. */
const indentOfLines = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.decorations = indents(view);
    }
    update(update) {
      if (update.docChanged || update.viewportChanged) this.decorations = indents(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

const INDENTS = new Map(); // a decoration for each width met, made once

function indents(view) {
  const builder = new RangeSetBuilder();
  const { doc, tabSize } = view.state;
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = doc.lineAt(pos);
      const width = countColumn(/^[ \t]*/.exec(line.text)[0], tabSize);
      if (width) {
        if (!INDENTS.has(width)) INDENTS.set(width, Decoration.line({ attributes: { style: `--indent: ${width}ch` } }));
        builder.add(line.from, line.from, INDENTS.get(width));
      }
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

// long lines wrap, on a phone and a desktop alike, each wrapped part under its line's indentation
const common = [lineNumbers(), python, lineMarks, EditorView.lineWrapping, indentOfLines];

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
      // tabindex: axe does not count contenteditable as focusable
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
      // focusable, so that a keyboard can reach and scroll a long class
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
