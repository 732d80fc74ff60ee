/**
 * "Download my work" and "Load work": the learner's code, verdicts and progress as one file
 * (format.js), to hand in or to carry to another browser. Loading replaces what this browser
 * has saved only once the learner confirms, then reloads the page so every tab shows it.
 */
import { h, uid } from "../page/dom.js";
import { store } from "../page/storage.js";
import { readWork, workFile, WorkError } from "./format.js";

const HERE = {
  course: PYTHON_ASSETS.course,
  site: new URL("../../", import.meta.url).href,
};

/** The panel: its two buttons, the file chooser behind Load, and what it has to say. */
export function workPanel() {
  const said = h("p", { class: "mg-work__said", role: "status" });
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
  return h("div", { class: "mg-work" }, download, load, chooser, said);

  function save() {
    const file = workFile(store.saved(), { ...HERE, now: new Date().toISOString() });
    const blob = new Blob([JSON.stringify(file, null, 1)], { type: "application/json" });
    const link = h("a", { href: URL.createObjectURL(blob), download: `micrograd-work-${day()}.json` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    said.replaceChildren(`Saved the code of ${Object.keys(file.code).length} tabs to your downloads.`);
  }
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

const day = () => new Date().toISOString().slice(0, 10);
