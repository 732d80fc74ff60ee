/**
 * A find-the-bug tab (`kind = "engine"`, grader/engine.py): the editor holds a whole engine with
 * one planted bug; the learner runs it, measures, fixes it in place and runs it again. The
 * verdict names a graph, a value and two numbers, never the line; once the learner has run it
 * and shown every hint, "Show the fix" (fix-diff.js) is the way out.
 */
import { editorHelp } from "../editor/keys.js";
import { h } from "../page/dom.js";
import { fixPart } from "./fix-diff.js";
import { exerciseCodeKey } from "./model.js";
import { savedEditor, tabRun } from "./panel-base.js";
import { hints, prompt } from "./parts.js";

/** The one slot of an engine tab: its whole source (runner/engine.py SLOT). */
export const ENGINE = "engine";

/** Fills `panel` for an engine tab; returns `{refresh(), state(), show()}`, as an op tab does. */
export function mountEnginePanel({ panel, exercise, model, onChange }) {
  const { progress, result, runner, whyPart, runAndRecord } = tabRun({
    exercise,
    model,
    goTo: () => null,
    graphs: "",
    onChange,
    onRun: () => run(),
  });
  const frame = engineFrame();
  const code = savedEditor({
    panel,
    exercise,
    key: exerciseCodeKey(exercise),
    starter: exercise.stubs[ENGINE],
    frame,
    label: `The engine of ${exercise.label}`,
    result,
    onEdit: onChange,
    onRun: () => run(),
  });
  // the way out, on request: once every hint is shown to a learner who has run the engine
  const fix = fixPart(exercise, progress);
  const offerFix = () => fix?.offer();
  const onReveal = (count) => {
    progress.reveal(count);
    offerFix();
  };
  const hintsPart = hints(exercise, { revealed: progress.hints, onReveal });
  panel.append(
    prompt(exercise),
    hintsPart ?? "",
    frame,
    editorHelp(),
    code.notice,
    h("div", { class: "mg-actions" }, runner.runButton, runner.stopButton, code.resetButton, fix?.button ?? ""),
    result.el,
    fix?.content ?? "",
    whyPart.el,
  );

  const state = () => progress.state(code.current());
  async function run() {
    const text = code.take();
    progress.attempt();
    const shown = await runAndRecord({ [ENGINE]: text }, [], text);
    offerFix();
    if (!shown) return;
    whyPart.show(shown.verdict === "pass");
    code.markError(shown.error, ENGINE);
  }

  return {
    refresh: () => code.editor().requestMeasure(),
    state,
    show: () => {
      whyPart.show(state() === "passed");
      offerFix();
    },
  };
}

/** The editor's frame: the whole engine is what the learner edits. */
function engineFrame() {
  return h(
    "div",
    { class: "mg-code mg-editor mg-engine-editor" },
    h("div", { class: "mg-code__bar" }, h("code", { "aria-hidden": "true" }, "engine.py › the whole engine")),
  );
}
