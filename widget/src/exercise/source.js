/**
 * Which code runs where a tab is not: a training widget, or the checker tab's plot of the error
 * against h: the learner's own, from the exercise page's tabs, or the course's reference for the
 * tabs not passed yet, as the learner chooses (the reference, until the learner chooses, when no
 * tab has passed). Also `said()`, which turns the trainers' words (where.js's parts) into text
 * and links.
 */
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { codeKey } from "./model.js";
import { tabProgress } from "./progress.js";
import { isStub } from "../shared/scaffold.js";
import { pageLink, tabLinks } from "./where.js";

/** where.js's parts as nodes: text, code, and links to the exercise pages' tabs. */
export function said(parts) {
  return parts.map((part) => {
    if (typeof part === "string") return part;
    const text = part.code ? h("code", {}, part.text) : part.text;
    return part.href ? h("a", { href: part.href }, text) : text;
  });
}

const TRAIN = { ing: "Training", base: "Train" };
export const MEASURE = { ing: "Measuring", base: "Measure" };

/**
 * Whose code trains: each op's code and whether it passed its tab, and the learner's choice
 * when one has not. `trainedOps` has each op's design, tab (exercise id and version) and starter
 * code (course/widget_data.py). `{el, refresh(), bodies(), starters()}`; `onChoice()` runs when
 * the choice changes; `verb` says what the code is for (MEASURE: a checker tab's plot).
 */
export function sourcePart(trainedOps, id, onChoice, verb = TRAIN) {
  const el = h("div", { class: "mg-train__source" });
  let useReference = null; // null: not chosen yet
  const ops = () =>
    trainedOps.map((op) => {
      const text = store.code(codeKey(op.design, op.op))?.text ?? op.stub;
      const passed = tabProgress({ id: op.exercise, version: op.version }).state(text) === "passed";
      return { ...op, text, passed };
    });
  const names = (list) => list.map((op) => h("code", {}, op.label)).flatMap((code, i) => [i ? ", " : "", code]);
  /** Whether the tabs not passed train with the reference: the learner's choice, else whether none passed. */
  const reference = (all) => useReference ?? !all.some((op) => op.passed);
  const choice = (value, all, ...text) => {
    const onchange = () => {
      useReference = value;
      onChoice();
    };
    const input = h("input", { type: "radio", name: `${id}-source`, checked: reference(all) === value, onchange });
    return h("label", { class: "mg-train__check" }, input, " ", ...text);
  };
  function refresh() {
    const all = ops();
    const missing = all.filter((op) => !op.passed);
    if (!missing.length) {
      el.replaceChildren(h("p", {}, `${verb.ing} with your own `, names(all), ": each passed its tab."));
      return;
    }
    const page = pageLink(missing[0].design);
    el.replaceChildren(
      h("p", {}, "Not passed yet: ", said(tabLinks(missing)), ", on the ", said([page]), ` page. ${verb.base} with:`),
      h(
        "div",
        { role: "radiogroup", "aria-label": `Which code to ${verb.base.toLowerCase()} with` },
        choice(false, all, "my code as it is (and watch what it does)"),
        choice(true, all, "the course’s reference code for ", names(missing)),
      ),
    );
  }
  // a tab passed in another browser tab; a page left by instant navigation no longer listens
  const unheard = store.onElsewhere(() => (el.isConnected ? refresh() : unheard()));
  const bodies = () => {
    const all = ops();
    return Object.fromEntries(all.flatMap((op) => (op.passed || !reference(all) ? [[op.op, op.text]] : [])));
  };
  /** The ops training runs with their starter code (`{op, design, exercise, label}`). */
  const starters = () => {
    const trained = bodies();
    return ops().filter((op) => op.op in trained && isStub(op.text, op.stub));
  };
  return { el, refresh, bodies, starters };
}
