/**
 * Where the learner writes each op a trainer uses: the page of its design and the tab on it,
 * as links, so that a trainer's words can send the learner to the very tab to fix. Words are
 * built as parts (`said()` in source.js turns them into elements): a string, `{code}`, or a
 * link `{href, text, code}`. Pure: no DOM.
 */

/** Each design's exercise page, from the site's root, and its title in the navigation. */
export const PAGES = {
  closures: { path: "exercises/", title: "Write the closures" },
  local_grads: { path: "local-gradients/", title: "Local gradients" },
};

import { tabHash } from "./model.js";

// the site's root: this module is bundled into assets/course/widget.js
const SITE = new URL("../../", import.meta.url);

/** A link to the tab of `op` (`{design, exercise, label}`), its label in code type. */
export function tabLink(op, site = SITE) {
  return { href: new URL(PAGES[op.design].path + tabHash(op.exercise), site).href, text: op.label, code: true };
}

/** The page of engines with a bug planted in each (docs/find-the-bug.md). */
const FIND_THE_BUG = { path: "find-the-bug/", title: "Find the bug" };

/** A link to the find-the-bug tab `exercise`, whose engine has the bug a switch plants. */
export function bugTabLink(exercise, site = SITE) {
  return { href: new URL(FIND_THE_BUG.path + tabHash(exercise), site).href, text: "find this bug in an engine" };
}

/** A link to a design's exercise page, named by its title. */
export function pageLink(design, site = SITE) {
  return { href: new URL(PAGES[design].path, site).href, text: PAGES[design].title };
}

/** `ops` as links to their tabs, with commas between. */
export function tabLinks(ops, site = SITE) {
  return ops.flatMap((op, i) => [...(i ? [", "] : []), tabLink(op, site)]);
}

/** "the `relu` tab on the Write the closures page", linked. */
export function tabOnPage(op, site = SITE) {
  return ["the ", tabLink(op, site), " tab on the ", pageLink(op.design, site), " page"];
}

/** The parts as plain text (what a screen reader or a test reads). */
export const text = (parts) => parts.map((part) => (typeof part === "string" ? part : part.text)).join("");
