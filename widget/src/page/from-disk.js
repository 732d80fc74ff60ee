/**
 * A page opened from disk (file://) cannot run Python: browsers load no module script and start
 * no worker from there, so every widget would stay empty. In place of each widget that runs
 * Python the page says so, and how to serve the site instead (HOSTING.md). The <head>'s early
 * start (entry/early-start.js), which every such page inlines and every browser runs, calls
 * `sayFromDisk`; the rest is pure.
 */
import { h } from "../shared/dom.js";

/** The elements that run Python: the page's module mounts them, the <head> starts Python for them. */
export const PYTHON_WIDGETS =
  "[data-exercise-widget], [data-training-widget], [data-microgpt-widget], [data-engine-check-widget], [data-verify-page]";

/** Whether the page was opened from a file on disk rather than from a web server. */
export const fromDisk = (location) => location.protocol === "file:";

/** What stands in each widget's place from disk: sentences as parts, a string or `{code}`. */
export const FROM_DISK = [
  ["This part of the course runs Python in your browser, which a page opened from a file on disk cannot do."],
  [
    "Serve the built site with any static web server instead: run ",
    { code: "python3 -m http.server" },
    " in the site's folder (or ",
    { code: "make serve" },
    " in the course's own folder) and open ",
    { code: "http://localhost:8000/" },
    ".",
  ],
];

/** Puts FROM_DISK in place of every widget of `doc` that runs Python. */
export function sayFromDisk(doc) {
  for (const el of doc.querySelectorAll(PYTHON_WIDGETS)) {
    const paragraphs = FROM_DISK.map((parts) =>
      h("p", {}, ...parts.map((part) => (typeof part === "string" ? part : h("code", {}, part.code)))),
    );
    el.replaceChildren(...paragraphs);
    el.classList.add("mg-widget--failed");
    el.dataset.fromDisk = "";
  }
}
