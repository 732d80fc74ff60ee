/**
 * A graph tab (the diamond): shows the test it runs, then runs it against the code the
 * learner wrote on the op tabs.
 */
import { createViewer } from "../editor/editor.js";
import { RUN_KEY } from "../editor/keys.js";
import { h } from "../shared/dom.js";
import { isStub } from "../shared/scaffold.js";
import { fuzzCheck, toldInDesign } from "./engine-check.js";
import { tabRun } from "./panel-base.js";
import { fullClass, hints, prompt } from "./parts.js";

const TOGETHER_ONLY =
  "Every one of these closures passes its own tab, yet together they give wrong numbers. Each tab checks its op on small graphs of its own; here the ops feed each other, so a closure that depends on anything but its own inputs and out.grad, or that touches other nodes, shows only here. The result above names the closure and the step.";

/**
 * Fills `panel`; `goTo(design, op)` opens an op's tab when this widget has one (else null);
 * `passedOps(design)` lists the op exercises whose current code passes; `told(exercise)`, the ops
 * whose rule the verdict may say (ladder.js). Returns `{refresh(),
 * state(), show()}`, as an op tab does.
 */
export function mountGraphPanel({ panel, exercise, model, bodies, goTo, onChange, passedOps, told }) {
  const { design } = exercise;
  const { progress, result, runner, whyPart, runAndRecord } = tabRun({
    exercise,
    model,
    goTo: (op) => goTo(design, op),
    graphs: exercise.graphs,
    onChange,
    onRun: () => run(),
  });
  const full = fullClass({ model, design, bodies, active: null, ran: exercise.ops });
  const opList = h("ul", { class: "mg-slots" });
  const testView = h("div", { class: "mg-code" });
  const note = h("p", { class: "mg-notice", hidden: true });
  panel.append(
    prompt(exercise),
    hints(exercise, { revealed: progress.hints, onReveal: progress.reveal }),
    h("h3", { class: "mg-subtitle" }, "Your code"),
    opList,
    h("h3", { class: "mg-subtitle" }, "The test it runs"),
    testView,
    h("div", { class: "mg-actions" }, runner.runButton, runner.stopButton, full.button),
    ...[result.el, note, full.content, whyPart.el],
    fuzzSection({ model, design, bodies, goTo }),
  );
  runOnKey(panel, () => run());

  /** The code of the exercise's ops, as the op tabs hold it now. */
  const theirs = () => {
    const all = bodies(design);
    return Object.fromEntries(exercise.ops.map((op) => [op, all[op]]));
  };
  const state = () => progress.state(JSON.stringify(theirs()));

  /** Which ops still hold the starter code, re-read whenever the tab is shown. */
  function refresh() {
    // the test's code is shown from the tab's first showing on: the page is ready sooner
    if (!panel.hidden && !testView.firstChild) {
      createViewer({ parent: testView, doc: exercise.test_code.trimEnd(), label: "The test, read-only" });
    }
    opList.replaceChildren(...opSlots({ exercise, model, goTo, current: theirs() }));
    full.refresh();
  }

  async function run() {
    refresh();
    note.hidden = true;
    const sent = theirs();
    progress.attempt();
    const shown = await runAndRecord(sent, told(exercise), JSON.stringify(sent));
    if (!shown) return;
    const allPassed = passedOps(design).filter((e) => exercise.ops.includes(e.ops[0]));
    if (shown.verdict === "fail" && allPassed.length === exercise.ops.length) {
      note.hidden = false;
      note.textContent = TOGETHER_ONLY;
    }
  }

  refresh();
  return { refresh, state, show: () => whyPart.show(state() === "passed") };
}

/** Runs `run()` on the run key (Ctrl/Cmd+Enter) pressed anywhere in `panel`. */
function runOnKey(panel, run) {
  panel.addEventListener("keydown", (event) => {
    if (!RUN_KEY.pressed(event)) return;
    event.preventDefault();
    run();
  });
}

/** "Check my whole engine": every op of the design, the graph's own or not, on random graphs. */
function fuzzSection({ model, design, bodies, goTo }) {
  return fuzzCheck({
    design,
    bodies: () => bodies(design),
    told: () => toldInDesign(model, design),
    goTo: (op) => goTo(design, op),
    timeLimit: model.timeLimit,
  }).el;
}

/** The list of the ops the graph uses, from `current`, their code as the op tabs hold it now. */
function opSlots({ exercise, model, goTo, current }) {
  const { design } = exercise;
  return exercise.ops.map((op) =>
    opSlot(model.designs[design].labels[op], goTo(design, op), isStub(current[op], exercise.stubs[op])),
  );
}

/** One op the graph uses: its label (a link to its tab, where it has one) and whose code it is. */
function opSlot(label, open, stub) {
  const name = open
    ? h(
        "button",
        { type: "button", class: "mg-link", onclick: open, "aria-label": `Open ${label}` },
        h("code", {}, label),
      )
    : h("code", {}, label);
  return h(
    "li",
    { class: stub ? "is-stub" : "is-written" },
    name,
    h("span", { class: "mg-slots__state" }, stub ? "starter code" : "your code"),
  );
}
