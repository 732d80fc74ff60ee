/**
 * "Make my certificate" (docs/progress.md): the learner's name as they type it, and a work file
 * (work/format.js, with that name) downloaded as the certificate, which the verify page and
 * `python -m grader verify` check by running its code; then the page to print, which lists each
 * pass the file claims (record/claims.js: with the code that passed) and the day it first passed.
 */
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { learnerName, workFile } from "../work/format.js";
import { day, HERE, nameField, offer, remember } from "../work/panel.js";
import { certifiedWork } from "./claims.js";
import { courseProgress, dayOf, readCourseMap } from "./course.js";
import { progressOf, SITE } from "./progress-page.js";

/** The certificate's file name: `micrograd-certificate-<name>-<day>.json`. */
const fileName = (learner, today) =>
  `micrograd-certificate-${learner
    .replace(/[^\p{L}\p{N}._-]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)}-${today}.json`;

/** Mounts the name field, the button and, once made, the certificate to print. */
export function mountCertificate(root) {
  const map = readCourseMap(root);
  const name = nameField("mg-certificate-name");
  const nameId = name.id;
  const said = h("p", { class: "mg-work__said", role: "status" });
  const printed = h("section", { class: "mg-certificate", hidden: true, "aria-label": "Your certificate, to print" });
  const make = () => {
    const learner = learnerName(name.value);
    if (!learner) {
      name.focus();
      return said.replaceChildren("Type your name as it should appear on the certificate.");
    }
    remember(learner);
    const now = new Date().toISOString();
    const work = certifiedWork(
      store.saved(),
      map.pages.flatMap((page) => page.exercises),
    );
    const file = workFile(work, { ...HERE, now, learner });
    const saved = fileName(learner, day());
    offer(file, saved);
    const claimed = new Set(work.claimed);
    printed.replaceChildren(...certificateView(learner, now, saved, courseProgress(map, progressOf), claimed));
    printed.hidden = false;
    said.replaceChildren(`Saved ${saved} to your downloads. Your certificate to print is below.`);
  };
  const button = h(
    "button",
    { type: "button", class: "mg-button mg-button--primary", onclick: make },
    "Make my certificate",
  );
  const form = h(
    "div",
    { class: "mg-work" },
    h("label", { class: "mg-work__ask", for: nameId }, "Your name, as it should appear on the certificate: ", name),
    button,
    said,
  );
  root.replaceChildren(form, printed);
}

function certificateView(learner, now, saved, { pages, total }, claimed) {
  const rows = pages.flatMap((page) =>
    page.exercises
      .filter((tab) => claimed.has(tab.exercise.id))
      .map((tab) =>
        h("tr", {}, h("td", {}, page.title), h("td", {}, tab.exercise.label), h("td", {}, dayOf(tab.passedAt))),
      ),
  );
  const verify = new URL("verify/", SITE).href;
  return [
    h("h3", { class: "mg-certificate__title" }, `Certificate of work: ${document.title.split(" - ").pop()}`),
    h("p", { class: "mg-certificate__name" }, learner),
    h("p", {}, `passed ${rows.length} of the course's ${total} exercises, as of ${dayOf(now)}.`),
    rows.length
      ? h(
          "table",
          { class: "mg-certificate__tabs" },
          h("thead", {}, h("tr", {}, h("th", {}, "Page"), h("th", {}, "Exercise"), h("th", {}, "Passed"))),
          h("tbody", {}, rows),
        )
      : null,
    h(
      "p",
      { class: "mg-certificate__check" },
      `Course ${HERE.course}, at ${HERE.site}. The file ${saved} holds the code of this work: anyone can check it at `,
      h("a", { href: verify }, verify),
      ", which runs it again.",
    ),
    h("button", { type: "button", class: "mg-button", onclick: () => window.print() }, "Print"),
  ];
}
