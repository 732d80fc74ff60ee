/**
 * A graph tab (the diamond): shows the test it runs, then runs it against the code the
 * learner wrote on the op tabs.
 */
import { createViewer } from "../editor/editor.js";
import { h } from "../page/dom.js";
import { store } from "../page/storage.js";
import { isStub } from "../shared/scaffold.js";
import { fullClass, hints, prompt, why } from "./parts.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";

/**
 * Fills `panel`; `goTo(design, op)` opens an op's tab when this widget has one (else null);
 * `passedOps(design)` lists the op exercises whose current code passes.
 */
export function mountGraphPanel({ panel, exercise, model, bodies, goTo, onChange, passedOps }) {
  const { design } = exercise;
  const labels = model.designs[design].labels;
  let progress = store.progress(exercise.id, exercise.version);
  const result = createResult({ goTo: (op) => goTo(design, op), graphs: exercise.graphs });
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun: () => run() });
  const whyPart = why(exercise);
  const full = fullClass({ model, design, bodies, active: null });
  const opList = h("ul", { class: "mg-slots" });
  const testView = h("div", { class: "mg-code" });
  const note = h("p", { class: "mg-notice", hidden: true });

  panel.append(
    prompt(exercise),
    h("h3", { class: "mg-subtitle" }, "Your code"),
    opList,
    h("h3", { class: "mg-subtitle" }, "The test it runs"),
    testView,
    h("div", { class: "mg-actions" }, runner.runButton, runner.stopButton, full.button),
    result.el,
    note,
    full.content,
    hints(exercise),
    whyPart.el,
  );
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  });

  /** The code of the exercise's ops, as the op tabs hold it now. */
  const theirs = () => {
    const all = bodies(design);
    return Object.fromEntries(exercise.ops.map((op) => [op, all[op]]));
  };

  function state() {
    if (progress.passedWith === null) return "";
    return progress.passedWith === JSON.stringify(theirs()) ? "passed" : "changed";
  }

  /** Which ops still hold the starter code, re-read whenever the tab is shown. */
  function refresh() {
    // the test's code is shown from the tab's first showing on: the page is ready sooner
    if (!panel.hidden && !testView.firstChild) {
      createViewer({ parent: testView, doc: exercise.test_code.trimEnd(), label: "The test, read-only" });
    }
    const current = theirs();
    opList.replaceChildren(
      ...exercise.ops.map((op) => {
        const stub = isStub(current[op], exercise.stubs[op]);
        const label = labels[op];
        const open = goTo(design, op);
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
      }),
    );
    full.refresh();
  }

  async function run() {
    refresh();
    note.hidden = true;
    const sent = theirs();
    const outcome = await runner.run(sent);
    if (!outcome) return;
    const passed = outcome.verdict === "pass";
    progress = { attempted: true, passedWith: passed ? JSON.stringify(sent) : null };
    store.setProgress(exercise.id, exercise.version, progress);
    onChange();
    const allPassed = passedOps(design).filter((e) => exercise.ops.includes(e.ops[0]));
    if (!passed && outcome.verdict === "fail" && allPassed.length === exercise.ops.length) {
      note.hidden = false;
      note.textContent =
        "Every one of these closures passes its own tab, yet together they give wrong numbers. Each tab checks its op on small graphs of its own; here the ops feed each other, so a closure that depends on anything but its own inputs and out.grad, or that touches other nodes, shows only here. The result above names the closure and the step.";
    }
  }

  refresh();
  return {
    refresh,
    state: () => {
      const now = state();
      whyPart.show(now === "passed");
      return now;
    },
  };
}
