/**
 * The compact indicator every page shows in its header: how many of the course's exercises have
 * passed, as a link to the progress page. Counted from the saved work (course.js), again when a
 * tab records a run (exercise/progress.js announces it) or another browser tab saves progress.
 */
import { RECORDED } from "../exercise/progress.js";
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { passedCount } from "./course.js";
import { SITE } from "./progress-page.js";

let link = null;

/** Puts the indicator in the header (once: instant navigation keeps the header) and counts. */
export function showIndicator(versions = PYTHON_ASSETS.exercises) {
  const header = document.querySelector(".md-header__inner");
  if (!header) return;
  if (!link) {
    link = h("a", { class: "mg-indicator", href: new URL("progress/", SITE).href });
    const recount = () => count(versions);
    document.addEventListener(RECORDED, recount);
    store.onElsewhere((keys) => keys.some((key) => key.startsWith("progress:")) && recount());
  }
  if (!link.isConnected) header.querySelector(".md-header__title")?.after(link);
  count(versions);
}

function count(versions) {
  const passed = passedCount(versions, ({ id, version }) => store.progress(id, version));
  const total = Object.keys(versions).length;
  // read as "2/25 exercises passed: your progress", its visible text first
  link.replaceChildren(
    h("span", { class: "mg-indicator__mark", "aria-hidden": "true" }),
    `${passed}/${total}`,
    h("span", { class: "mg-visually-hidden" }, " exercises passed: your progress"),
  );
  link.title = `Your progress: ${passed} of ${total} exercises passed`;
}
