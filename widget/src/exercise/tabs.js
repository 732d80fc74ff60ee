/**
 * WAI-ARIA tabs (automatic activation): arrow keys and Home/End move between tabs, only the
 * selected tab is in the Tab order, each tab controls one `role="tabpanel"`.
 */
import { h, uid } from "../shared/dom.js";

/**
 * Builds a tablist for `labels`. Returns `{list, panels, select(index), setState(index, state)}`;
 * `onSelect(index)` runs after every change of tab.
 */
export function createTabs({ labels, name, onSelect }) {
  const base = uid("mg-tab");
  const tabs = labels.map((label, i) => tabButton(base, i, label));
  const panels = labels.map((_, i) => tabPanel(base, i));
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

  moveOnKeys(
    list,
    tabs.length,
    () => current,
    (index) => select(index, true),
  );
  for (const [i, tab] of tabs.entries()) tab.addEventListener("click", () => select(i));

  show(0);
  return { list, panels, select, setState: (index, state) => markTab(tabs[index], state) };
}

/** Tab `i` of the tablist `base`, which controls its panel: its label, its ✓ and its "changed" dot. */
function tabButton(base, i, label) {
  return h(
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
    h("span", { class: "mg-tab__changed", "aria-hidden": "true", title: "changed since it passed: run it again" }, "•"),
  );
}

/** The panel tab `i` of the tablist `base` controls. */
function tabPanel(base, i) {
  return h("div", {
    role: "tabpanel",
    id: `${base}-${i}-panel`,
    "aria-labelledby": `${base}-${i}`,
    class: "mg-panel",
    tabindex: "0",
  });
}

/** The arrow keys, Home and End in `list` of `count` tabs: `select(index)` of the tab they
 * reach from `current()`, wrapping round at either end. */
function moveOnKeys(list, count, current, select) {
  const keys = {
    ArrowRight: () => (current() + 1) % count,
    ArrowLeft: () => (current() - 1 + count) % count,
    Home: () => 0,
    End: () => count - 1,
  };
  list.addEventListener("keydown", (event) => {
    const next = keys[event.key];
    if (!next || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    select(next());
  });
}

/** Marks a tab "passed" (✓), "changed" (passed, then its code changed) or "" (neither). */
function markTab(tab, state) {
  tab.classList.toggle("is-passed", state === "passed");
  tab.classList.toggle("is-changed", state === "changed");
  const said = { passed: "passed", changed: "changed since it passed" }[state];
  if (said) tab.setAttribute("aria-description", said);
  else tab.removeAttribute("aria-description");
}
