/** An op tab: the learner writes one `_backward` body, runs the test, and reads the verdict. */
import { h } from "./dom.js";
import { createEditor, createViewer, markLines, setText } from "./editor.js";
import { editorHelp } from "./keys.js";
import { disclosure, fullClass, hints, prompt, why } from "./parts.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";
import { store } from "./storage.js";

/** Fills `panel` for `exercise`; `onPassed(passed)` runs when the pass state is known or changes. */
export function mountOpPanel({ panel, exercise, model, bodies, onPassed }) {
  const slot = exercise.slots[0];
  const stub = exercise.stubs[slot] ?? "";
  const saved = store.code(slot);
  let progress = store.progress(exercise.id, exercise.version);

  const result = createResult();
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun: () => run() });
  const notice = h("div", { class: "mg-notice", role: "status" });
  const whyPart = why(exercise);
  const editorFrame = h(
    "div",
    { class: "mg-code mg-editor" },
    h(
      "div",
      { class: "mg-code__bar", "aria-hidden": "true" },
      h("code", {}, `Value.${exercise.label} › def _backward():`),
    ),
  );
  // a hidden tab gets its editor when first shown: the page is ready sooner
  let view = null;
  const editor = () =>
    (view ??= createEditor({
      parent: editorFrame,
      doc: saved?.text ?? stub,
      label: `Your _backward body for ${exercise.label}`,
      onChange: (text) => {
        store.setCode(slot, text, exercise.version);
        notice.replaceChildren();
        full.refresh();
      },
      onRun: () => run(),
    }));
  if (!panel.hidden) editor();

  const solutionView = h("div", { class: "mg-code" });
  const solution = disclosure({
    show: "Show solution",
    hide: "Hide solution",
    content: h(
      "div",
      { class: "mg-solution" },
      h("p", { class: "mg-code__caption" }, "One correct body:"),
      solutionView,
    ),
    onOpen: () => {
      if (!solutionView.firstChild) {
        createViewer({
          parent: solutionView,
          doc: (exercise.solutions[slot] ?? "").trimEnd(),
          label: "The solution, read-only",
        });
      }
    },
  });
  solution.button.hidden = !progress.attempted;
  const full = fullClass({ model, bodies, active: slot });

  const resetButton = h("button", { type: "button", class: "mg-button", onclick: reset }, "Reset");

  panel.append(
    prompt(exercise),
    editorFrame,
    editorHelp(),
    notice,
    h(
      "div",
      { class: "mg-actions" },
      runner.runButton,
      runner.stopButton,
      resetButton,
      solution.button,
      full.button,
    ),
    result.el,
    solution.content,
    full.content,
    hints(exercise),
    whyPart.el,
  );

  // said until the learner edits or runs: their next save records the new version
  if (!saved && store.damaged(`code:${slot}`)) {
    notice.replaceChildren(
      "Your saved code for this tab could not be read (the browser's copy of it is damaged), so it starts from the starter code.",
    );
  } else if (saved && saved.version !== exercise.version) {
    notice.replaceChildren(
      "This exercise has changed since you last worked on it. Your code is kept as you left it; run the test to check it again.",
    );
  }
  whyPart.show(progress.passed);
  onPassed(progress.passed);

  function reset() {
    const view = editor();
    const before = view.state.doc.toString();
    if (before === stub) {
      notice.replaceChildren("This is already the starter code.");
      return;
    }
    setText(view, stub);
    const undo = h("button", { type: "button", class: "mg-button mg-button--quiet" }, "Undo");
    undo.addEventListener("click", () => {
      setText(view, before);
      view.focus();
    });
    notice.replaceChildren("Back to the starter code. ", undo);
    undo.focus();
  }

  async function run() {
    const view = editor();
    const text = view.state.doc.toString();
    store.setCode(slot, text, exercise.version);
    notice.replaceChildren();
    markLines(view, []);
    progress = { ...progress, attempted: true };
    store.setProgress(exercise.id, exercise.version, progress);
    solution.button.hidden = false;
    const outcome = await runner.run({ [slot]: text });
    if (!outcome) return;
    progress = { ...progress, passed: outcome.verdict === "pass" };
    store.setProgress(exercise.id, exercise.version, progress);
    whyPart.show(progress.passed);
    onPassed(progress.passed);
    const error = outcome.error;
    if (error?.slot === slot && error.line)
      markLines(view, [{ line: error.line, className: "mg-line-error" }]);
  }

  return { refresh: () => editor().requestMeasure() };
}
