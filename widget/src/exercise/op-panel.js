/**
 * An op tab: the learner writes one op's code, runs the test, and reads the verdict. A checker
 * tab (grader/checker.py) is one too, its slot a gradient checker's three functions: it has no
 * Value class to show, and the plot of the error against h (checker-plot.js) where an op tab
 * has the nudge tool.
 */
import { createEditor, createViewer, markLines, setText } from "../editor/editor.js";
import { editorHelp } from "../editor/keys.js";
import { h } from "../page/dom.js";
import { store } from "../page/storage.js";
import { isStub } from "../shared/scaffold.js";
import { codeKey } from "./model.js";
import { checkerPlot } from "./checker-plot.js";
import { nudgePart } from "./nudge.js";
import { comparison, disclosure, fullClass, hints, prompt, why } from "./parts.js";
import { tabProgress } from "./progress.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";

/** What the learner writes, in each design. */
const WRITES = { closures: "def _backward():", local_grads: "local_grads = (…)" };

/**
 * Fills `panel` for `exercise`; `onChange()` runs whenever its code or its verdict changes, so
 * that the widget can update every tab's mark. Returns `{refresh(), state(), show()}`: `state()`
 * is "passed", "changed" or "", and `show()` brings the panel's buttons in line with it.
 * `told(exercise)` lists the ops whose rule the verdict may say (ladder.js).
 */
export function mountOpPanel({ panel, exercise, model, bodies, goTo, onChange, told }) {
  const op = exercise.ops[0];
  const key = codeKey(exercise.design, op);
  const stub = exercise.stubs[op];
  const saved = store.code(key);
  const progress = tabProgress(exercise);
  // a culprit op other than this tab's own gets a link to its tab
  const result = createResult({
    goTo: (culprit) => (exercise.ops.includes(culprit) ? null : goTo(exercise.design, culprit)),
    graphs: exercise.graphs,
  });
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun: () => run() });
  const notice = h("div", { class: "mg-notice", role: "status" });
  const changed = changedNotice();
  const whyPart = why(exercise);
  const frame = editorFrame(exercise, op);
  // a hidden tab gets its editor when first shown: the page is ready sooner
  let view = null;
  const editor = () =>
    (view ??= createEditor({
      parent: frame,
      doc: saved?.text ?? stub,
      label: `Your code for ${exercise.label}`,
      onChange: (text) => {
        store.setCode(key, text, exercise.version);
        notice.replaceChildren();
        full?.refresh();
        compare?.refresh();
        nudge.stale();
        onChange();
      },
      onRun: () => run(),
    }));
  if (!panel.hidden) editor();
  const current = () => (view ? view.state.doc.toString() : (store.code(key)?.text ?? stub));
  // the course may leave the references out (the plugin's `solutions: false`)
  const reference = exercise.solutions[op] ?? null;
  const solution = reference === null ? null : solutionPart(reference);
  const checker = exercise.kind === "checker";
  const full = checker ? null : fullClass({ model, design: exercise.design, bodies, active: op });
  const compare = reference === null ? null : comparison({ mine: current, reference });
  const onReset = () => reset(editor(), stub, notice) && result.clear();
  const resetButton = h("button", { type: "button", class: "mg-button", onclick: onReset }, "Reset");
  const actions = [runner.runButton, runner.stopButton, resetButton, solution?.button, compare?.button, full?.button];
  const hintsPart = hintLadder(exercise, progress, () => {
    show();
    if (!hintsPart.hintsLeft()) result.el.querySelector(".mg-next-hint")?.remove();
  });
  const nudge = (checker ? checkerPlot : nudgePart)({ exercise, code: current, timeLimit: model.timeLimit });
  panel.append(
    ...[workedNote(exercise), prompt(exercise), hintsPart, frame, editorHelp(), notice, changed],
    h("div", { class: "mg-actions" }, ...actions),
    checker ? "" : nudge.el,
    ...[result.el, solution?.content, compare?.content, full?.content ?? "", whyPart.el],
    checker ? nudge.el : "",
  );
  notice.replaceChildren(staleNotice(saved, key, exercise.version));

  const state = () => progress.state(current());
  function show() {
    const now = state();
    if (solution) solution.button.hidden = !(progress.attempted && progress.hints >= exercise.hints.length);
    if (compare) compare.button.hidden = now !== "passed";
    if (now !== "passed") compare?.close();
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
    const outcome = await runner.run({ [op]: text }, told(exercise));
    if (!outcome) return;
    progress.record(text, outcome.verdict);
    onChange();
    offerHint(result.el, hintsPart, outcome.verdict);
    markError(view, outcome.error, op);
  }

  return { refresh: () => editor().requestMeasure(), state, show };
}

function changedNotice() {
  return h(
    "p",
    { class: "mg-notice mg-notice--changed", hidden: true },
    "You changed this code since it passed: run the test again to check it.",
  );
}

/** Above the question of a tab whose rule an earlier page worked out: which page. */
function workedNote(exercise) {
  if (!exercise.worked) return "";
  return h(
    "p",
    { class: "mg-note mg-worked" },
    `Worked through on an earlier page, “${exercise.worked}”: try it without looking back first.`,
  );
}

/** The editor's frame: what the learner writes, and the names their code can use. */
function editorFrame(exercise, op) {
  const names = exercise.scope[op].flatMap((name, i) => [i ? ", " : "", h("code", {}, name)]);
  const writes = exercise.kind === "checker" ? "numerical_grad, relative_error, check" : null;
  return h(
    "div",
    { class: "mg-code mg-editor" },
    h(
      "div",
      { class: "mg-code__bar" },
      h("code", { "aria-hidden": "true" }, writes ?? `Value.${exercise.label} › ${WRITES[exercise.design]}`),
      h("span", { class: "mg-code__scope" }, writes ? "Their arguments: " : "Names you can use: ", names),
    ),
  );
}

/** "Show solution": the reference body, read-only, drawn when first opened. */
function solutionPart(reference) {
  const solutionView = h("div", { class: "mg-code" });
  const caption = h("p", { class: "mg-code__caption", tabindex: "-1" }, "One correct body:");
  return disclosure({
    show: "Show solution",
    hide: "Hide solution",
    content: h("div", { class: "mg-solution" }, caption, solutionView),
    onOpen: () => {
      if (!solutionView.firstChild) {
        createViewer({ parent: solutionView, doc: reference.trimEnd(), label: "The solution, read-only" });
      }
      caption.scrollIntoView({ block: "nearest", behavior: "smooth" });
      caption.focus({ preventScroll: true });
    },
  });
}

/** What to say of the saved code before the learner edits or runs (their next save records
 * the new version): it was damaged, or the exercise changed since. */
function staleNotice(saved, key, version) {
  if (!saved && store.damaged(`code:${key}`)) {
    return "Your saved code for this tab could not be read (the browser's copy of it is damaged), so it starts from the starter code.";
  }
  if (saved && saved.version !== version) {
    return "This exercise has changed since you last worked on it. Your code is kept as you left it; run the test to check it again.";
  }
  return "";
}

/** Puts the starter code back, with an Undo that restores what was there; false when it
 * already was the starter code. */
export function reset(view, stub, notice) {
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

/** Below a verdict that is not a pass, the next rung of the ladder, one press away. */
function offerHint(resultEl, hintsPart, verdict) {
  resultEl.querySelector(".mg-next-hint")?.remove();
  if (!verdict || verdict === "pass" || !hintsPart?.hintsLeft()) return;
  const button = h("button", { type: "button", class: "mg-button mg-button--quiet" }, "Show the next hint");
  button.addEventListener("click", () => {
    hintsPart.revealNext();
    button.parentElement.remove();
  });
  // right under the verdict, not below the table of checks
  resultEl.querySelector(".mg-verdict").after(h("p", { class: "mg-next-hint" }, "Stuck? ", button));
}

/** The line the learner's code raised on, marked in their editor. */
function markError(view, error, op) {
  if (error?.slot === op && error.line) markLines(view, [{ line: error.line, className: "mg-line-error" }]);
}

/** The hints beside the question, each one shown remembered; `onReveal()` after each, since
 * the last rung opens "Show solution" to a learner who has tried code of their own. */
function hintLadder(exercise, progress, onReveal) {
  return hints(exercise, {
    shown: progress.hints,
    onReveal: (count) => {
      progress.reveal(count);
      onReveal();
    },
  });
}
