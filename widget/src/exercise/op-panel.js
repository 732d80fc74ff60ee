/** An op tab: the learner writes one op's code, runs the test, and reads the verdict. */
import { createEditor, createViewer, markLines, setText } from "../editor/editor.js";
import { editorHelp } from "../editor/keys.js";
import { h } from "../page/dom.js";
import { store } from "../page/storage.js";
import { isStub } from "../shared/scaffold.js";
import { codeKey } from "./model.js";
import { comparison, disclosure, fullClass, hints, prompt, why } from "./parts.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";

/** What the learner writes, in each design. */
const WRITES = { closures: "def _backward():", local_grads: "local_grads = (…)" };

/**
 * Fills `panel` for `exercise`; `onChange()` runs whenever its code or its verdict changes,
 * so that the widget can update every tab's mark.
 */
export function mountOpPanel({ panel, exercise, model, bodies, goTo, onChange }) {
  const op = exercise.ops[0];
  const key = codeKey(exercise.design, op);
  const stub = exercise.stubs[op];
  const saved = store.code(key);
  let progress = store.progress(exercise.id, exercise.version);

  // a culprit op other than this tab's own gets a link to its tab
  const result = createResult({
    goTo: (op) => (exercise.ops.includes(op) ? null : goTo(exercise.design, op)),
    graphs: exercise.graphs,
  });
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun: () => run() });
  const notice = h("div", { class: "mg-notice", role: "status" });
  const changed = h(
    "p",
    { class: "mg-notice mg-notice--changed", hidden: true },
    "You changed this code since it passed: run the test again to check it.",
  );
  const whyPart = why(exercise);
  const scope = exercise.scope[op];
  const editorFrame = h(
    "div",
    { class: "mg-code mg-editor" },
    h(
      "div",
      { class: "mg-code__bar" },
      h("code", { "aria-hidden": "true" }, `Value.${exercise.label} › ${WRITES[exercise.design]}`),
      h(
        "span",
        { class: "mg-code__scope" },
        "Names you can use: ",
        scope.flatMap((name, i) => [i ? ", " : "", h("code", {}, name)]),
      ),
    ),
  );
  // a hidden tab gets its editor when first shown: the page is ready sooner
  let view = null;
  const editor = () =>
    (view ??= createEditor({
      parent: editorFrame,
      doc: saved?.text ?? stub,
      label: `Your code for ${exercise.label}`,
      onChange: (text) => {
        store.setCode(key, text, exercise.version);
        notice.replaceChildren();
        full.refresh();
        compare.refresh();
        onChange();
      },
      onRun: () => run(),
    }));
  if (!panel.hidden) editor();
  const current = () => (view ? view.state.doc.toString() : (store.code(key)?.text ?? stub));

  const solutionView = h("div", { class: "mg-code" });
  const solutionCaption = h("p", { class: "mg-code__caption", tabindex: "-1" }, "One correct body:");
  const solution = disclosure({
    show: "Show solution",
    hide: "Hide solution",
    content: h("div", { class: "mg-solution" }, solutionCaption, solutionView),
    onOpen: () => {
      if (!solutionView.firstChild) {
        createViewer({ parent: solutionView, doc: exercise.solutions[op].trimEnd(), label: "The solution, read-only" });
      }
      solutionCaption.scrollIntoView({ block: "nearest", behavior: "smooth" });
      solutionCaption.focus({ preventScroll: true });
    },
  });
  const full = fullClass({ model, design: exercise.design, bodies, active: op });
  const compare = comparison({ mine: current, reference: exercise.solutions[op] });
  const resetButton = h("button", { type: "button", class: "mg-button", onclick: reset }, "Reset");

  panel.append(
    prompt(exercise),
    editorFrame,
    editorHelp(),
    notice,
    changed,
    h(
      "div",
      { class: "mg-actions" },
      runner.runButton,
      runner.stopButton,
      resetButton,
      solution.button,
      compare.button,
      full.button,
    ),
    result.el,
    solution.content,
    compare.content,
    full.content,
    hints(exercise),
    whyPart.el,
  );

  // said until the learner edits or runs: their next save records the new version
  if (!saved && store.damaged(`code:${key}`)) {
    notice.replaceChildren(
      "Your saved code for this tab could not be read (the browser's copy of it is damaged), so it starts from the starter code.",
    );
  } else if (saved && saved.version !== exercise.version) {
    notice.replaceChildren(
      "This exercise has changed since you last worked on it. Your code is kept as you left it; run the test to check it again.",
    );
  }

  /** "passed" when the code is what passed, "changed" when it passed with other code, else "". */
  function state() {
    if (progress.passedWith === null) return "";
    return progress.passedWith === current() ? "passed" : "changed";
  }

  function show() {
    const now = state();
    solution.button.hidden = !progress.attempted;
    compare.button.hidden = now !== "passed";
    if (now !== "passed") compare.close();
    changed.hidden = now !== "changed";
    whyPart.show(now === "passed");
  }

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
    store.setCode(key, text, exercise.version);
    notice.replaceChildren();
    markLines(view, []);
    if (!isStub(text, stub)) progress = { ...progress, attempted: true };
    store.setProgress(exercise.id, exercise.version, progress);
    show();
    const outcome = await runner.run({ [op]: text });
    if (!outcome) return;
    const passed = outcome.verdict === "pass";
    progress = { ...progress, passedWith: passed ? text : null };
    store.setProgress(exercise.id, exercise.version, progress);
    onChange();
    const error = outcome.error;
    if (error?.slot === op && error.line) markLines(view, [{ line: error.line, className: "mg-line-error" }]);
  }

  return {
    refresh: () => editor().requestMeasure(),
    state: () => {
      const now = state();
      show();
      return now;
    },
  };
}
