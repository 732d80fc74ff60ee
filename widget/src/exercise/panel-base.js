/**
 * What the op, engine and graph panels are built on: a tab's run (its progress, its result, its
 * Run and Stop buttons, "why it works", a verdict recorded) and, for the tabs the learner writes
 * in, the editor of the tab's saved code with its notice and its Reset.
 */
import { createEditor, markLines, setText } from "../editor/editor.js";
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { why } from "./parts.js";
import { tabProgress } from "./progress.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";

/**
 * A tab's run: `{progress, result, runner, whyPart, runAndRecord(bodies, told, code)}`. The
 * result links a culprit op to its tab through `goTo(op)` (null where there is none) and draws
 * `graphs`; the Run button calls `onRun()`. `runAndRecord` runs `bodies` and records the verdict
 * against `code` (what `progress.state` is asked of), then calls `onChange()`; it resolves with
 * the result shown (the grader's dict), or null when there is none to record (run.js).
 */
export function tabRun({ exercise, model, goTo, graphs, onRun, onChange }) {
  const progress = tabProgress(exercise);
  const result = createResult({ goTo, graphs });
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun });
  async function runAndRecord(bodies, told, code) {
    const shown = await runner.run(bodies, told);
    if (!shown) return null;
    progress.record(code, shown.verdict);
    onChange();
    return shown;
  }
  return { progress, result, runner, whyPart: why(exercise), runAndRecord };
}

/**
 * The editor of a tab's code, saved under `key` at every edit, in `frame`. A hidden tab gets its
 * editor when first shown (`editor()` makes it), so that the page is ready sooner; it starts from
 * `doc`, by default the code saved by then, else `starter`. `onEdit()` runs after each edit is
 * saved, `onRun()` on the editor's run key, `onShown(view)` when a visible tab's editor is made
 * at once and after Reset (a hidden tab's caller does it on first showing). Returns `{notice, editor(), current(), resetButton,
 * take(), markError(error, slot)}`: the notice under the editor, the code as it is now (the saved
 * code while there is no editor yet), the Reset button (which clears `result`), and what a run
 * does first and last.
 */
export function savedEditor({
  panel,
  exercise,
  key,
  starter,
  frame,
  label,
  doc,
  result,
  onEdit,
  onRun,
  onShown = () => {},
}) {
  const notice = h("div", { class: "mg-notice", role: "status" });
  let view = null;
  const current = () => (view ? view.state.doc.toString() : (store.code(key)?.text ?? starter));
  const save = (text) => {
    store.setCode(key, text, exercise.version);
    notice.replaceChildren();
  };
  const editor = () =>
    (view ??= createEditor({
      parent: frame,
      doc: doc ?? current(),
      label,
      onChange: (text) => {
        save(text);
        onEdit();
      },
      onRun,
    }));
  if (!panel.hidden) onShown(editor());
  const onReset = () => reset(editor(), starter, notice) && (result.clear(), onShown(editor()));
  return {
    notice,
    editor,
    current,
    resetButton: h("button", { type: "button", class: "mg-button", onclick: onReset }, "Reset"),
    /** Before a run: the code in the editor, saved, with the notice and the last run's marks cleared. */
    take() {
      const text = editor().state.doc.toString();
      save(text);
      markLines(view, []);
      return text;
    },
    /** After a run: the line the code raised on, marked, when it was this tab's `slot`. */
    markError(error, slot) {
      if (error?.slot === slot && error.line) markLines(view, [{ line: error.line, className: "mg-line-error" }]);
    },
  };
}

/** Puts the starter code back, with an Undo that restores what was there; false when it
 * already was the starter code. */
function reset(view, stub, notice) {
  const before = view.state.doc.toString();
  if (before === stub) {
    notice.replaceChildren("This is already the starter code.");
    return false;
  }
  setText(view, stub);
  const undo = h("button", { type: "button", class: "mg-button mg-button--quiet" }, "Undo");
  undo.addEventListener("click", () => {
    setText(view, before);
    view.focus();
  });
  notice.replaceChildren("Back to the starter code. ", undo);
  undo.focus();
  return true;
}
