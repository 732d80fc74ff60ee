/**
 * A find-the-bug tab (`kind = "engine"`, grader/engine.py): the editor holds a whole engine with
 * one planted bug; the learner runs it, measures, fixes it in place and runs it again. The
 * verdict names a graph, a value and two numbers, never the line; once the learner has run it
 * and shown every hint, "Show the fix" (fix-diff.js) is the way out.
 */
import { foldClosures } from "../editor/folds.js";
import { editorHelp } from "../editor/keys.js";
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
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
    onShown: (view) => foldClosures(view, unpassed(exercise)),
  });
  let shown = !panel.hidden;
  const { fix, offerFix, hintsPart } = hintsAndFix(exercise, progress);
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
    refresh() {
      if (!shown) foldClosures(code.editor(), unpassed(exercise)); // its first showing
      shown = true;
      code.editor().requestMeasure();
    },
    state,
    show: () => {
      whyPart.show(state() === "passed");
      offerFix();
    },
  };
}

/** The hints, and the way out on request: "Show the fix", offered once every hint is shown to a
 * learner who has run the engine. */
function hintsAndFix(exercise, progress) {
  const fix = fixPart(exercise, progress);
  const offerFix = () => fix?.offer();
  const onReveal = (count) => {
    progress.reveal(count);
    offerFix();
  };
  return { fix, offerFix, hintsPart: hints(exercise, { revealed: progress.hints, onReveal }) };
}

/** The methods whose closures the engine's editor folds as spoilers: each op's whose tab the
 * learner has not passed (course/widget_data.py `folds`), wherever that tab is. */
function unpassed(exercise) {
  return new Set(
    (exercise.folds ?? []).filter((tab) => !store.progress(tab.id, tab.version).solved).map((tab) => tab.label),
  );
}

/** The editor's frame: the whole engine is what the learner edits. */
function engineFrame() {
  return h(
    "div",
    { class: "mg-code mg-editor mg-engine-editor" },
    h("div", { class: "mg-code__bar" }, h("code", { "aria-hidden": "true" }, "engine.py › the whole engine")),
  );
}
