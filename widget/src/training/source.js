/**
 * Which code a training widget trains with: the learner's own, from the exercise page's tabs,
 * or the course's reference for the tabs not passed yet, as the learner chooses.
 */
import { h } from "../page/dom.js";
import { store } from "../page/storage.js";
import { codeKey } from "../exercise/model.js";
import { tabProgress } from "../exercise/progress.js";
import { isStub } from "../shared/scaffold.js";

/**
 * Whose code trains: each op's code and whether it passed its tab, and the learner's choice
 * when one has not. `opsData` has each op's design, tab (exercise id and version) and starter
 * code (course/widget_data.py). `{el, refresh(), bodies(), starters()}`; `onChoice()` runs when
 * the choice changes.
 */
export function sourcePart(opsData, id, onChoice) {
  const el = h("div", { class: "mg-train__source" });
  let useReference = false;
  const ops = () =>
    opsData.map((op) => {
      const text = store.code(codeKey(op.design, op.op))?.text ?? op.stub;
      const passed = tabProgress({ id: op.exercise, version: op.version }).state(text) === "passed";
      return { ...op, text, passed };
    });
  const names = (list) => list.map((op) => h("code", {}, op.label)).flatMap((code, i) => [i ? ", " : "", code]);
  const choice = (value, ...text) => {
    const onchange = () => {
      useReference = value;
      onChoice();
    };
    const input = h("input", { type: "radio", name: `${id}-source`, checked: useReference === value, onchange });
    return h("label", { class: "mg-train__check" }, input, " ", ...text);
  };
  function refresh() {
    const all = ops();
    const missing = all.filter((op) => !op.passed);
    if (!missing.length) {
      el.replaceChildren(h("p", {}, "Training with your own ", names(all), ": each passed its tab."));
      return;
    }
    el.replaceChildren(
      h("p", {}, "Not passed yet: ", names(missing), ". Train with:"),
      h(
        "div",
        { role: "radiogroup", "aria-label": "Which code to train with" },
        choice(false, "my code as it is (and watch what it does)"),
        choice(true, "the course’s reference code for ", names(missing)),
      ),
    );
  }
  const bodies = () =>
    Object.fromEntries(ops().flatMap((op) => (op.passed || !useReference ? [[op.op, op.text]] : [])));
  /** The labels of the ops training runs with their starter code. */
  const starters = () => ops().flatMap((op) => (op.op in bodies() && isStub(op.text, op.stub) ? [op.label] : []));
  return { el, refresh, bodies, starters };
}
