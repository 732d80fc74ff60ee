/**
 * "Download my work" and "Load work": the learner's code, verdicts and progress as one file
 * (format.js), to hand in or to carry to another browser. Loading replaces what this browser
 * has saved only once the learner confirms, then reloads the page so every tab shows it.
 */
import { h, uid } from "../shared/dom.js";
import { wasErased } from "../shared/erased.js";
import { store } from "../shared/storage.js";
import { learnerName, readWork, workFile, workFileName, WorkError } from "./format.js";

export const HERE = {
  course: PYTHON_ASSETS.course,
  exercises: PYTHON_ASSETS.exercises,
  site: new URL("../../", import.meta.url).href,
};

// the learner's name or ID, for the files they hand in: this browser remembers it for the site
const LEARNER_KEY = `micrograd-learner:${HERE.site}`;

/** The learner's name field, filled with the name this browser remembers; `more`, its other
 * attributes. The work panel and the certificate both ask with it. */
export function nameField(idPrefix, more = {}) {
  const attributes = { type: "text", id: uid(idPrefix), class: "mg-work__name", autocomplete: "name" };
  return h("input", { ...attributes, maxlength: "200", value: remembered() ?? "", ...more });
}

/** The panel: its two buttons, the file chooser behind Load, and what it has to say. */
export function workPanel() {
  const said = h("p", { class: "mg-work__said", role: "status" });
  const name = nameField("mg-work-name", { onchange: () => remember(learnerName(name.value)) });
  const nameId = name.id;
  const asking = h(
    "label",
    { class: "mg-work__ask", for: nameId, hidden: remembered() === null ? null : "" },
    "Your name or ID, for your instructor (it goes in the file you download): ",
    name,
  );
  const chooser = h("input", { type: "file", accept: ".json,application/json", hidden: true, id: uid("mg-work") });
  const download = h(
    "button",
    { type: "button", class: "mg-button mg-button--quiet", onclick: save },
    "Download my work",
  );
  const load = h(
    "button",
    { type: "button", class: "mg-button mg-button--quiet", onclick: () => chooser.click() },
    "Load work…",
  );
  chooser.addEventListener("change", () => chosen(chooser.files[0], said).finally(() => (chooser.value = "")));
  const change = h(
    "button",
    { type: "button", class: "mg-button mg-button--quiet", onclick: () => ask("") },
    "Change name",
  );
  return h("div", { class: "mg-work" }, asking, download, load, change, chooser, said);

  function save() {
    if (remembered() === null) {
      // asked once: a second press downloads with the field as it is, empty or not
      remember(learnerName(name.value));
      if (!learnerName(name.value))
        return ask("Type your name or ID, then download again (or download it without one).");
    }
    said.replaceChildren(downloadWork(learnerName(name.value)));
  }

  function ask(words) {
    asking.hidden = false;
    name.focus();
    said.replaceChildren(words);
  }
}

/** Downloads `file` (JSON) as `name`. */
export function offer(file, name) {
  const blob = new Blob([JSON.stringify(file, null, 1)], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(blob), download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Reads the chosen file and asks before replacing anything. */
async function chosen(file, said) {
  if (!file) return;
  let work;
  try {
    work = readWork(await file.text(), HERE);
  } catch (error) {
    said.replaceChildren(error instanceof WorkError ? error.message : `The file could not be read (${error.message}).`);
    return;
  }
  const count = Object.keys(work.code).length;
  const other = work.otherVersion ? " It was saved from another version of the course; tabs that changed say so." : "";
  const replace = h("button", { type: "button", class: "mg-button mg-button--primary" }, "Replace my work");
  const cancel = h("button", { type: "button", class: "mg-button" }, "Cancel");
  replace.addEventListener("click", () => {
    store.restore(work);
    said.replaceChildren(`Loaded the code of ${count} tabs.`);
    location.reload();
  });
  cancel.addEventListener("click", () => said.replaceChildren("Nothing was loaded."));
  said.replaceChildren(
    `This file holds the code of ${count} tabs. Loading it replaces the code and progress this browser has saved for them.${other} `,
    replace,
    " ",
    cancel,
  );
  replace.focus();
}

/** Downloads the saved work as a file, with `learner` (by default the name this browser
 * remembers) in it; says what it saved. */
export function downloadWork(learner = remembered() ?? "") {
  const file = workFile(store.saved(), { ...HERE, now: new Date().toISOString(), learner });
  offer(file, workFileName(learner, day()));
  const who = learner ? `, named ${learner},` : "";
  return `Saved the code of ${Object.keys(file.code).length} tabs${who} to your downloads.`;
}

export const day = () => new Date().toISOString().slice(0, 10);

/** The name or ID this browser remembers ("" when the learner gave none), or null if never asked. */
export function remembered() {
  try {
    return window.localStorage.getItem(LEARNER_KEY);
  } catch {
    return null; // storage refused: the field stays, unremembered
  }
}

export function remember(text) {
  if (wasErased()) return;
  try {
    window.localStorage.setItem(LEARNER_KEY, text);
  } catch {
    // storage refused: the name goes in this download only
  }
}
