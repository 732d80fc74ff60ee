/**
 * An op tab: the learner writes one op's code, runs the test, and reads the verdict. A checker
 * tab (grader/checker.py) is one too, its slot a gradient checker's three functions: it has no
 * Value class to show, and the plot of the error against h (checker-plot.js) where an op tab
 * has the nudge tool (VARIANTS says so, once).
 */
import { createViewer } from "../editor/editor.js";
import { editorHelp } from "../editor/keys.js";
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { isStub } from "../shared/scaffold.js";
import { exerciseCodeKey } from "./model.js";
import { checkerPlot } from "./checker-plot.js";
import { nudgePart } from "./nudge.js";
import { savedEditor, tabRun } from "./panel-base.js";
import { comparison, disclosure, fullClass, hints, prompt } from "./parts.js";

/** What the learner writes, in each design. */
const WRITES = { closures: "def _backward():", local_grads: "local_grads = (…)" };

/**
 * What sets an op tab and a checker tab apart, chosen once by the tab's kind (kinds.js): the
 * editor's bar (what the learner writes, and what the names listed beside it are), whether there is a Value
 * class to show, and the tool the tab measures with, `tool({exercise, code, timeLimit})` →
 * `{underButtons, atEnd, edited()}`. An op tab's is the nudge tool (nudge.js), under its
 * buttons: it measures the code in the editor, so an edit puts its figures out of date. A
 * checker tab's is the plot of the error against h (checker-plot.js), below everything else: it
 * measures the closures of the tanh and exp tabs, so an edit here changes nothing in it.
 */
const VARIANTS = {
  op: {
    writes: (exercise) => `Value.${exercise.label} › ${WRITES[exercise.design]}`,
    names: "Names you can use: ",
    fullClass: true,
    tool: (args) => {
      const nudge = nudgePart(args);
      return { underButtons: nudge.el, atEnd: "", edited: nudge.stale };
    },
  },
  checker: {
    writes: () => "numerical_grad, relative_error, check",
    names: "Their arguments: ",
    fullClass: false,
    tool: ({ exercise, timeLimit }) => ({
      underButtons: "",
      atEnd: checkerPlot({ exercise, timeLimit }).el,
      edited: () => {},
    }),
  },
};

/**
 * Fills `panel` for `exercise`; `onChange()` runs whenever its code or its verdict changes, so
 * that the widget can update every tab's mark. Returns `{refresh(), state(), show()}`: `state()`
 * is "passed", "changed" or "", and `show()` brings the panel's buttons in line with it.
 * `told(exercise)` lists the ops whose rule the verdict may say (ladder.js).
 */
export function mountOpPanel({ panel, exercise, model, bodies, goTo, onChange, told }) {
  const variant = VARIANTS[exercise.kind];
  const op = exercise.ops[0];
  const key = exerciseCodeKey(exercise);
  const stub = exercise.stubs[op];
  const saved = store.code(key);
  const show = () => showState(tab);
  const run = () => runOp(tab);
  const basics = tabRun({
    exercise,
    model,
    graphs: exercise.graphs,
    onChange,
    onRun: run,
    // a culprit op other than this tab's own gets a link to its tab
    goTo: (culprit) => (exercise.ops.includes(culprit) ? null : goTo(exercise.design, culprit)),
  });
  const { progress, result, runner, whyPart } = basics;
  const changed = changedNotice();
  const frame = editorFrame(exercise, op, variant);
  const code = savedEditor({
    panel,
    exercise,
    key,
    frame,
    result,
    starter: stub,
    doc: saved?.text ?? stub,
    label: `Your code for ${exercise.label}`,
    onEdit: () => {
      extras.full?.refresh();
      extras.compare?.refresh();
      tool.edited();
      onChange();
    },
    onRun: run,
  });
  const extras = opExtras({ exercise, op, variant, model, bodies, current: code.current });
  const hintsPart = hintLadder(exercise, progress, () => {
    show();
    if (!hintsPart.hintsLeft()) result.el.querySelector(".mg-next-hint")?.remove();
  });
  const tool = variant.tool({ exercise, code: code.current, timeLimit: model.timeLimit });
  // the tab's parts, kept in one place for `showState` and `runOp`
  const tab = { exercise, op, stub, told: () => told(exercise), ...basics, changed, code, extras, hintsPart };
  panel.append(
    ...[workedNote(exercise), prompt(exercise), hintsPart, frame, editorHelp(), code.notice, changed],
    h("div", { class: "mg-actions" }, runner.runButton, runner.stopButton, code.resetButton, ...extras.buttons),
    tool.underButtons,
    ...[result.el, ...extras.contents, whyPart.el],
    tool.atEnd,
  );
  code.notice.replaceChildren(staleNotice(saved, key, exercise.version));
  return { refresh: () => code.editor().requestMeasure(), state: () => stateOf(tab), show };
}

/** "passed", "changed" or "": the tab's progress against the code as it is now. */
const stateOf = ({ progress, code }) => progress.state(code.current());

/** The panel's buttons and notes in line with its state: "Show solution" once every hint is
 * shown to a learner who has tried, the comparison and "why it works" once it passes, the
 * notice of code changed since it passed. */
function showState(tab) {
  const { exercise, progress, extras, changed, whyPart } = tab;
  const { solution, compare } = extras;
  const now = stateOf(tab);
  if (solution) solution.button.hidden = !(progress.attempted && progress.hints >= exercise.hints.length);
  if (compare) compare.button.hidden = now !== "passed";
  if (now !== "passed") compare?.close();
  changed.hidden = now !== "changed";
  whyPart.show(now === "passed");
}

/** Runs the tab's code: an attempt unless it is the starter code; the next hint offered under
 * a verdict that is not a pass, and the line the code raised on marked. */
async function runOp(tab) {
  const { op, stub, code, progress, result, hintsPart } = tab;
  const text = code.take();
  if (!isStub(text, stub)) progress.attempt();
  showState(tab);
  offerHint(result.el, hintsPart, null);
  const shown = await tab.runAndRecord({ [op]: text }, tab.told(), text);
  if (!shown) return;
  offerHint(result.el, hintsPart, shown.verdict);
  code.markError(shown.error, op);
}

/**
 * The disclosures beside the Run button, `{solution, compare, full, buttons, contents}`: "Show
 * solution" and the comparison with the reference, unless the course leaves the references out
 * (the plugin's `solutions: false`), and the full Value class, where the tab's kind has one.
 */
function opExtras({ exercise, op, variant, model, bodies, current }) {
  const reference = exercise.solutions[op] ?? null;
  const solution = reference === null ? null : solutionPart(reference);
  const full = variant.fullClass ? fullClass({ model, design: exercise.design, bodies, active: op, ran: [op] }) : null;
  const compare = reference === null ? null : comparison({ mine: current, reference });
  return {
    solution,
    compare,
    full,
    // without references (`solutions: false`) there is neither a solution nor a comparison
    buttons: [solution?.button, compare?.button, full?.button].filter(Boolean),
    contents: [solution?.content, compare?.content, full?.content].filter(Boolean),
  };
}

function changedNotice() {
  return h(
    "p",
    { class: "mg-notice mg-notice--changed", hidden: true },
    "You changed this code since it passed: run the test again to check it.",
  );
}

/** Above the question of a tab whose rule, or whole answer (a worked example,
 * course/spoilers.py), a page before it worked out: which page. */
function workedNote(exercise) {
  if (!exercise.worked && !exercise.example) return "";
  const rule = exercise.worked ? `Worked through on an earlier page, “${exercise.worked}”` : "";
  const answer = exercise.example ? `its answer shown as a worked example on “${exercise.example}”` : "";
  const said = rule && answer ? `${rule}, and ${answer}` : rule || answer[0].toUpperCase() + answer.slice(1);
  return h("p", { class: "mg-note mg-worked" }, `${said}: try it without looking back first.`);
}

/** The editor's frame: what the learner writes, and the names their code can use. */
function editorFrame(exercise, op, variant) {
  const names = exercise.scope[op].flatMap((name, i) => [i ? ", " : "", h("code", {}, name)]);
  return h(
    "div",
    { class: "mg-code mg-editor" },
    h(
      "div",
      { class: "mg-code__bar" },
      h("code", { "aria-hidden": "true" }, variant.writes(exercise)),
      h("span", { class: "mg-code__scope" }, variant.names, names),
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

/** The hints beside the question, each one shown remembered; `onReveal()` after each, since
 * the last rung opens "Show solution" to a learner who has tried code of their own. */
function hintLadder(exercise, progress, onReveal) {
  return hints(exercise, {
    revealed: progress.hints,
    onReveal: (count) => {
      progress.reveal(count);
      onReveal();
    },
  });
}
