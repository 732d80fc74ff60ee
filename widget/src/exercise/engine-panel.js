/**
 * A find-the-bug tab (`kind = "engine"`, grader/engine.py): the editor holds a whole engine with
 * one planted bug; the learner runs it, measures, fixes it in place and runs it again. The
 * verdict names a graph, a value and two numbers, never the line.
 */
import { createEditor, markLines } from "../editor/editor.js";
import { editorHelp } from "../editor/keys.js";
import { h } from "../page/dom.js";
import { store } from "../page/storage.js";
import { reset } from "./op-panel.js";
import { exerciseCodeKey } from "./model.js";
import { hints, prompt, why } from "./parts.js";
import { tabProgress } from "./progress.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";

/** The one slot of an engine tab: its whole source (runner/engine.py SLOT). */
export const ENGINE = "engine";

/** Fills `panel` for an engine tab; returns `{refresh(), state(), show()}`, as an op tab does. */
export function mountEnginePanel({ panel, exercise, model, onChange }) {
  const key = exerciseCodeKey(exercise);
  const shipped = exercise.stubs[ENGINE];
  const progress = tabProgress(exercise);
  const result = createResult({ goTo: () => null, graphs: "" });
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun: () => run() });
  const notice = h("div", { class: "mg-notice", role: "status" });
  const whyPart = why(exercise);
  const frame = h(
    "div",
    { class: "mg-code mg-editor mg-engine-editor" },
    h("div", { class: "mg-code__bar" }, h("code", { "aria-hidden": "true" }, "engine.py › the whole engine")),
  );
  let view = null;
  const editor = () =>
    (view ??= createEditor({
      parent: frame,
      doc: store.code(key)?.text ?? shipped,
      label: `The engine of ${exercise.label}`,
      onChange: (text) => {
        store.setCode(key, text, exercise.version);
        notice.replaceChildren();
        onChange();
      },
      onRun: () => run(),
    }));
  if (!panel.hidden) editor();
  const current = () => (view ? view.state.doc.toString() : (store.code(key)?.text ?? shipped));
  const resetButton = h(
    "button",
    { type: "button", class: "mg-button", onclick: () => reset(editor(), shipped, notice) && result.clear() },
    "Reset",
  );
  const hintsPart = hints(exercise, { shown: progress.hints, onReveal: progress.reveal });
  panel.append(
    prompt(exercise),
    hintsPart ?? "",
    frame,
    editorHelp(),
    notice,
    h("div", { class: "mg-actions" }, runner.runButton, runner.stopButton, resetButton),
    result.el,
    whyPart.el,
  );

  const state = () => progress.state(current());
  async function run() {
    const text = editor().state.doc.toString();
    store.setCode(key, text, exercise.version);
    notice.replaceChildren();
    markLines(view, []);
    progress.attempt();
    const outcome = await runner.run({ [ENGINE]: text }, []);
    if (!outcome) return;
    progress.record(text, outcome.verdict);
    onChange();
    whyPart.show(outcome.verdict === "pass");
    if (outcome.error?.slot === ENGINE && outcome.error.line) {
      markLines(view, [{ line: outcome.error.line, className: "mg-line-error" }]);
    }
  }

  return {
    refresh: () => editor().requestMeasure(),
    state,
    show: () => whyPart.show(state() === "passed"),
  };
}
