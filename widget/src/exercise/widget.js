/** Hydrates one `<div data-exercise-widget>`: tabs, one panel per exercise, the status line. */
import { h } from "./dom.js";
import { mountDiamondPanel } from "./diamond-panel.js";
import { registerIsolation } from "./isolation.js";
import { DATA_SELECTOR, ownsSlot, readModel } from "./model.js";
import { mountOpPanel } from "./op-panel.js";
import { statusLine } from "./status.js";
import { store } from "./storage.js";
import { createTabs } from "./tabs.js";

const STORAGE_PROBLEMS = {
  disabled:
    "This browser is not letting the page save anything, so your code will be lost when you leave. Everything else works.",
  full: "The browser's storage for this site is full, so your latest changes are not being saved: copy your code somewhere safe before you leave. Everything else works.",
};

export function mountExercise(root) {
  const model = readModel(root);
  const { exercises } = model;
  if (model.serviceWorker) registerIsolation();
  const tabs = createTabs({
    labels: exercises.map((exercise) => exercise.label),
    name: "Exercises",
    onSelect: (index) => panels[index].refresh(),
  });
  const storageNote = h("p", { class: "mg-notice mg-notice--warning", role: "status", hidden: true });
  const showProblem = (problem) => {
    storageNote.hidden = !problem;
    storageNote.textContent = STORAGE_PROBLEMS[problem] ?? "";
  };
  store.onProblem(showProblem);
  showProblem(store.problem);

  // every slot's current body: the saved code, else the starter code
  const stubs = Object.assign({}, ...exercises.map((exercise) => exercise.stubs));
  const bodies = () =>
    Object.fromEntries(Object.keys(stubs).map((slot) => [slot, store.code(slot)?.text ?? stubs[slot]]));
  const goTo = (slot) => {
    const index = exercises.findIndex((exercise) => exercise.id === slot);
    return index < 0 ? null : () => tabs.select(index, true);
  };

  const panels = exercises.map((exercise, index) => {
    const mount = ownsSlot(exercise) ? mountOpPanel : mountDiamondPanel;
    return mount({
      panel: tabs.panels[index],
      exercise,
      model,
      bodies,
      goTo,
      onPassed: (passed) => tabs.setPassed(index, passed),
    });
  });

  root.querySelector(DATA_SELECTOR)?.remove();
  root.classList.add("mg-widget");
  root.append(h("div", { class: "mg-frame" }, storageNote, tabs.list, ...tabs.panels, statusLine()));
}
