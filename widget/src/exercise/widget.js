/**
 * Hydrates one `<div data-exercise-widget>`: tabs, one panel per exercise, the status line. It
 * opens the tab an address asks for (`#tab-<exercise>`, model.js), else the one open last, and
 * shows what another browser tab saves as soon as it is saved.
 */
import { EditorView } from "@codemirror/view";
import { setTextFromElsewhere } from "../editor/editor.js";
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { savedBodies } from "./engine-check.js";
import { mountEnginePanel } from "./engine-panel.js";
import { mountGraphPanel } from "./graph-panel.js";
import { kindOf } from "./kinds.js";
import { toldOps } from "./ladder.js";
import { DATA_SELECTOR, exerciseCodeKey, hashTab, readModel } from "./model.js";
import { mountOpPanel } from "./op-panel.js";
import { statusLine } from "./status.js";
import { workPanel } from "../work/panel.js";
import { createTabs } from "./tabs.js";

const STORAGE_PROBLEMS = {
  disabled:
    "This browser is not letting the page save anything, so your code will be lost when you leave. Everything else works.",
  full: "The browser's storage for this site is full, so your latest changes are not being saved: copy your code somewhere safe before you leave. Everything else works.",
};

export function mountExercise(root) {
  const model = readModel(root);
  const { exercises } = model;
  const widgetKey = exercises.map((exercise) => exercise.id).join(" ");
  const fromElsewhere = (index) => showSaved(exercises[index], tabs.panels[index]);
  const tabs = createTabs({
    labels: exercises.map((exercise) => exercise.label),
    name: "Exercises",
    onSelect: (index) => {
      panels[index].refresh();
      fromElsewhere(index); // an editor made now shows what was saved since the page loaded
      store.setTab(widgetKey, exercises[index].id);
    },
  });
  const storageNote = storageNotice();
  const { panels, marks } = mountPanels(model, tabs);
  marks();
  const elsewhereNote = elsewhereNotice({ root, exercises, fromElsewhere, marks });

  const asked = exercises.findIndex((exercise) => exercise.id === hashTab(location.hash));
  const last = exercises.findIndex((exercise) => exercise.id === store.tab(widgetKey));
  if (asked >= 0 || last > 0) tabs.select(asked >= 0 ? asked : last);

  root.querySelector(DATA_SELECTOR)?.remove();
  root.classList.add("mg-widget");
  root.append(
    h("div", { class: "mg-frame" }, storageNote, elsewhereNote, tabs.list, ...tabs.panels, statusLine(), workPanel()),
  );
  if (asked >= 0) root.scrollIntoView({ block: "start" });
}

/** Says, for as long as it lasts, why the browser is not saving the learner's work. */
function storageNotice() {
  const note = h("p", { class: "mg-notice mg-notice--warning", role: "status", hidden: true });
  const showProblem = (problem) => {
    note.hidden = !problem;
    note.textContent = STORAGE_PROBLEMS[problem] ?? "";
  };
  store.onProblem(showProblem);
  showProblem(store.problem);
  return note;
}

/** The panels that show a tab, by the name its kind gives (kinds.js `panel`). */
const PANELS = { op: mountOpPanel, graph: mountGraphPanel, engine: mountEnginePanel };

/**
 * One panel per exercise in `tabs`' panels, each mounted as its kind asks (a checker tab is
 * shown by the op panel). Returns `{panels, marks()}`; `marks()` brings every tab's mark in line with
 * its progress and the code as it is now, and runs whenever a panel's code or verdict changes.
 */
function mountPanels(model, tabs) {
  const { exercises } = model;
  /** Every op's current code in a design: the saved code, else the starter code. */
  const bodies = (design) => savedBodies(model, design);
  /** Opens the tab of an op's own exercise in a design, if this widget has one (else null). */
  const goTo = (design, op) => {
    const index = exercises.findIndex((e) => kindOf(e).opTab && e.design === design && e.ops[0] === op);
    return index < 0 ? null : () => tabs.select(index, true);
  };
  const marks = () => {
    for (const [index, panel] of panels.entries()) {
      panel.show();
      tabs.setState(index, panel.state());
    }
  };
  const panels = exercises.map((exercise, index) => {
    return PANELS[kindOf(exercise).panel]({
      panel: tabs.panels[index],
      exercise,
      model,
      bodies,
      goTo,
      onChange: marks,
      told: (tab) => toldOps(tab, exercises, (e) => store.progress(e.id, e.version)),
      passedOps: (design) =>
        exercises.filter((e, i) => kindOf(e).opTab && e.design === design && panels[i].state() === "passed"),
    });
  });
  return { panels, marks };
}

/** Shows in `exercise`'s editor in `panel`, if it has one yet, the code saved now; true if it changed. */
function showSaved(exercise, panel) {
  const editor = kindOf(exercise).ownCode && panel.querySelector(".cm-editor");
  const saved = editor && store.code(exerciseCodeKey(exercise));
  return Boolean(saved) && setTextFromElsewhere(EditorView.findFromDOM(editor), saved.text);
}

/**
 * What another browser tab of the course saves, shown here as soon as it is saved: each changed
 * tab's editor takes it (`fromElsewhere(index)`), every mark is redone, and the note returned
 * names the tabs whose code changed.
 */
function elsewhereNotice({ root, exercises, fromElsewhere, marks }) {
  const note = h("p", { class: "mg-notice", role: "status", hidden: true });
  const unheard = store.onElsewhere((keys) => {
    if (!root.isConnected) return unheard(); // a page left by instant navigation
    const changed = exercises.filter(
      (exercise, index) =>
        kindOf(exercise).ownCode && keys.includes(`code:${exerciseCodeKey(exercise)}`) && fromElsewhere(index),
    );
    marks();
    if (!changed.length) return;
    note.hidden = false;
    note.textContent = `Your code for ${changed.map((e) => e.label).join(", ")} was changed in another browser tab of this course, and is shown here as it is there.`;
  });
  return note;
}
