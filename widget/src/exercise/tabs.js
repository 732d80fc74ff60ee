/**
 * WAI-ARIA tabs (automatic activation): arrow keys and Home/End move between tabs, only the
 * selected tab is in the Tab order, each tab controls one `role="tabpanel"`.
 */
import { h, uid } from "./dom.js";

/**
 * Builds a tablist for `labels`. Returns `{list, panels, select(index), setPassed(index, passed)}`;
 * `onSelect(index)` runs after every change of tab.
 */
export function createTabs({ labels, name, onSelect }) {
  const base = uid("mg-tab");
  const tabs = labels.map((label, i) =>
    h(
      "button",
      {
        type: "button",
        role: "tab",
        id: `${base}-${i}`,
        "aria-controls": `${base}-${i}-panel`,
        class: "mg-tab",
      },
      h("span", { class: "mg-tab__label" }, label),
      // aria-hidden keeps the tab's accessible name exactly its label
      h("span", { class: "mg-tab__mark", "aria-hidden": "true" }, "✓"),
    ),
  );
  const panels = labels.map((_, i) =>
    h("div", {
      role: "tabpanel",
      id: `${base}-${i}-panel`,
      "aria-labelledby": `${base}-${i}`,
      class: "mg-panel",
      tabindex: "0",
    }),
  );
  const list = h("div", { role: "tablist", "aria-label": name, class: "mg-tabs" }, tabs);
  let current = 0;

  function show(index) {
    current = index;
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === index));
      tab.tabIndex = i === index ? 0 : -1;
      panels[i].hidden = i !== index;
    });
  }

  function select(index, focus = false) {
    show(index);
    if (focus) tabs[index].focus();
    onSelect?.(index);
  }

  const keys = {
    ArrowRight: () => (current + 1) % tabs.length,
    ArrowLeft: () => (current - 1 + tabs.length) % tabs.length,
    Home: () => 0,
    End: () => tabs.length - 1,
  };
  list.addEventListener("keydown", (event) => {
    const next = keys[event.key];
    if (!next || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    select(next(), true);
  });
  tabs.forEach((tab, i) => tab.addEventListener("click", () => select(i)));

  function setPassed(index, passed) {
    tabs[index].classList.toggle("is-passed", passed);
    if (passed) tabs[index].setAttribute("aria-description", "passed");
    else tabs[index].removeAttribute("aria-description");
  }

  show(0);
  return { list, panels, select, setPassed };
}
