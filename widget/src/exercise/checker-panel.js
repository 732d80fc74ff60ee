/**
 * A checker tab (`kind = "checker"`, grader/checker.py): the learner writes a gradient checker's
 * three functions, runs the test and reads the verdict, as on an op tab (op-panel.js lends its
 * parts); below it, the plot of how a numerical gradient's error depends on h (checker-plot.js).
 */
import { createEditor, markLines } from "../editor/editor.js";
import { editorHelp } from "../editor/keys.js";
import { h } from "../page/dom.js";
import { store } from "../page/storage.js";
import { isStub } from "../shared/scaffold.js";
import { checkerPlot } from "./checker-plot.js";
import { codeKey } from "./model.js";
import {
  changedNotice,
  hintLadder,
  markError,
  offerHint,
  reset,
  solutionPart,
  staleNotice,
} from "./op-panel.js";
import { prompt, why } from "./parts.js";
import { tabProgress } from "./progress.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";

/** Fills `panel` for a checker `exercise`; returns `{refresh(), state(), show()}` as op-panel.js. */
export function mountCheckerPanel({ panel, exercise, model, onChange, told }) {
  const slot = exercise.ops[0];
  const key = codeKey(exercise.design, slot);
  const stub = exercise.stubs[slot];
  const saved = store.code(key);
  const progress = tabProgress(exercise);
  const result = createResult({ goTo: () => null, graphs: "" });
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun: () => run() });
  const notice = h("div", { class: "mg-notice", role: "status" });
  const changed = changedNotice();
  const whyPart = why(exercise);
  const names = exercise.scope[slot].flatMap((name, i) => [i ? ", " : "", h("code", {}, name)]);
  const frame = h(
    "div",
    { class: "mg-code mg-editor" },
    h(
      "div",
      { class: "mg-code__bar" },
      h("code", { "aria-hidden": "true" }, "numerical_grad, relative_error, check"),
      h("span", { class: "mg-code__scope" }, "Their arguments: ", names),
    ),
  );
  let view = null;
  const editor = () =>
    (view ??= createEditor({
      parent: frame,
      doc: saved?.text ?? stub,
      label: `Your code for ${exercise.label}`,
      onChange: (text) => {
        store.setCode(key, text, exercise.version);
        notice.replaceChildren();
        onChange();
      },
      onRun: () => run(),
    }));
  if (!panel.hidden) editor();
  const current = () => (view ? view.state.doc.toString() : (store.code(key)?.text ?? stub));
  const reference = exercise.solutions[slot] ?? null;
  const solution = reference === null ? null : solutionPart(reference);
  const onReset = () => reset(editor(), stub, notice) && result.clear();
  const resetButton = h("button", { type: "button", class: "mg-button", onclick: onReset }, "Reset");
  const hintsPart = hintLadder(exercise, progress, () => {
    show();
    if (!hintsPart.hintsLeft()) result.el.querySelector(".mg-next-hint")?.remove();
  });
  const plot = checkerPlot({ exercise, timeLimit: model.timeLimit });
  panel.append(
    ...[prompt(exercise), hintsPart, frame, editorHelp(), notice, changed],
    h("div", { class: "mg-actions" }, runner.runButton, runner.stopButton, resetButton, solution?.button),
    ...[result.el, solution?.content, whyPart.el, plot.el],
  );
  notice.replaceChildren(staleNotice(saved, key, exercise.version));

  const state = () => progress.state(current());
  function show() {
    const now = state();
    if (solution) solution.button.hidden = !(progress.attempted && progress.hints >= exercise.hints.length);
    changed.hidden = now !== "changed";
    whyPart.show(now === "passed");
  }

  async function run() {
    const text = editor().state.doc.toString();
    store.setCode(key, text, exercise.version);
    notice.replaceChildren();
    markLines(view, []);
    if (!isStub(text, stub)) progress.attempt();
    show();
    offerHint(result.el, hintsPart, null);
    const outcome = await runner.run({ [slot]: text }, told(exercise));
    if (!outcome) return;
    progress.record(text, outcome.verdict);
    onChange();
    offerHint(result.el, hintsPart, outcome.verdict);
    markError(view, outcome.error, slot);
  }

  return { refresh: () => editor().requestMeasure(), state, show };
}
