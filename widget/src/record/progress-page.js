/**
 * The progress page (docs/progress.md): every exercise of the course, page by page, passed, tried
 * or not started, with the day each passed and where to go on, read from this browser's saved
 * work (course.js decides; shared/storage.js keeps it). Shown again when another browser tab of
 * the site saves progress.
 */
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { tabHash } from "../exercise/model.js";
import { courseProgress, dayOf, readCourseMap } from "./course.js";

export const SITE = new URL("../../", import.meta.url).href;
export const progressOf = (exercise) => store.progress(exercise.id, exercise.version);

const STATES = { passed: "passed", tried: "tried, not passed yet", "not-started": "not started" };

/** Mounts the progress list in `root`, which holds the course's map. */
export function mountProgress(root) {
  const map = readCourseMap(root);
  const show = () => root.replaceChildren(...progressView(courseProgress(map, progressOf)));
  show();
  store.onElsewhere((keys) => keys.some((key) => key.startsWith("progress:")) && show());
}

/** The summary, where to go on, and a list per page. */
function progressView({ pages, resume, passed, tried, total }) {
  const summary = h(
    "p",
    { class: "mg-progress__summary" },
    `You have passed ${passed} of the course's ${total} exercises`,
    tried ? `, and tried ${tried} more.` : ".",
  );
  const next = resume
    ? h(
        "p",
        { class: "mg-progress__resume" },
        "Go on with ",
        h("a", { href: tabLink(resume) }, `${resume.exercise.label} on “${resume.page.title}”`),
        ".",
      )
    : h("p", { class: "mg-progress__resume" }, "You have passed every exercise of the course.");
  const list = h("ol", { class: "mg-progress__pages" }, pages.map(pageView));
  return [summary, next, list];
}

function pageView(page) {
  const done = page.exercises.filter((tab) => tab.state === "passed").length;
  return h(
    "li",
    { class: "mg-progress__page" },
    h(
      "h2",
      { class: "mg-progress__title" },
      h("a", { href: new URL(page.url, SITE).href }, page.title),
      h("span", { class: "mg-progress__count" }, ` ${done} of ${page.exercises.length} passed`),
    ),
    h("ul", { class: "mg-progress__tabs" }, page.exercises.map(tabView)),
  );
}

function tabView(tab) {
  const when = tab.state === "passed" && tab.passedAt ? ` on ${dayOf(tab.passedAt)}` : "";
  return h(
    "li",
    {
      class: `mg-progress__tab mg-progress__tab--${tab.state}`,
      "data-progress-exercise": tab.exercise.id,
      "data-progress-state": tab.state,
    },
    h("span", { class: "mg-progress__mark", "aria-hidden": "true" }),
    h("a", { href: tabLink(tab) }, tab.exercise.label),
    h("span", { class: "mg-progress__state" }, `: ${STATES[tab.state]}${when}`),
  );
}

/** The address that opens a tab on its page (exercise/widget.js reads the fragment). */
export const tabLink = (tab) => new URL(tab.page.url + tabHash(tab.exercise.id), SITE).href;
