/** The diamond tab: shows the test it runs, then runs it against every body the learner wrote. */
import { h } from "./dom.js";
import { createViewer } from "./editor.js";
import { fullClass, hints, prompt, why } from "./parts.js";
import { createResult } from "./results.js";
import { createRunner } from "./run.js";
import { store } from "./storage.js";

/** Fills `panel`; `goTo(slot)` opens a slot's tab when this widget has one (else null). */
export function mountDiamondPanel({ panel, exercise, model, bodies, onPassed, goTo }) {
  let progress = store.progress(exercise.id, exercise.version);
  const result = createResult();
  const runner = createRunner({ exercise, result, timeLimit: model.timeLimit, onRun: () => run() });
  const whyPart = why(exercise);
  const full = fullClass({ model, bodies, active: null });
  const slotList = h("ul", { class: "mg-slots" });
  const testView = h("div", { class: "mg-code" });

  panel.append(
    prompt(exercise),
    h("h3", { class: "mg-subtitle" }, "Your closures"),
    slotList,
    h("h3", { class: "mg-subtitle" }, "The test it runs"),
    testView,
    h("div", { class: "mg-actions" }, runner.runButton, runner.stopButton, full.button),
    result.el,
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
  whyPart.show(progress.passed);
  onPassed(progress.passed);

  /** Which slots still hold the starter code, re-read whenever the tab is shown. */
  function refresh() {
    // the test's code is shown from the tab's first showing on: the page is ready sooner
    if (!panel.hidden && !testView.firstChild) {
      createViewer({ parent: testView, doc: exercise.test_code.trimEnd(), label: "The diamond test, read-only" });
    }
    const current = bodies();
    slotList.replaceChildren(
      ...exercise.slots.map((slot) => {
        const stub = current[slot].trim() === (exercise.stubs[slot] ?? "").trim();
        const label = model.slotLabels[slot] ?? slot;
        const name = goTo(slot)
          ? h(
              "button",
              {
                type: "button",
                class: "mg-link",
                onclick: () => goTo(slot)(),
                "aria-label": `Open ${label}`,
              },
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
    const outcome = await runner.run(bodies());
    if (!outcome) return;
    progress = { attempted: true, passed: outcome.verdict === "pass" };
    store.setProgress(exercise.id, exercise.version, progress);
    whyPart.show(progress.passed);
    onPassed(progress.passed);
  }

  refresh();
  return { refresh };
}
