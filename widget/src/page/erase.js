/**
 * "Erase my data", mounted into any `<div data-erase-data>`: after a confirmation that offers
 * "Download my work" first, it deletes everything the course stored in this browser for this
 * site (its path on the host: two courses on one host never touch each other's): saved work and
 * progress, the learner's name, Python's memory snapshots, the offline copy and the service
 * worker that keeps it, and the theme's settings. The tab keeps nothing more afterwards (shared/erased.js).
 */
import { h } from "../shared/dom.js";
import { erasable, markErased } from "../shared/erased.js";
import { downloadWork } from "../work/panel.js";

const SITE = new URL("../../", import.meta.url); // this bundle is assets/course/widget.js
const PATH = SITE.pathname;
const OURS = (name) => erasable(name, SITE);

export function mountErase(root) {
  const said = h("p", { class: "mg-erase__said", role: "status" });
  const erase = h("button", { type: "button", class: "mg-button mg-button--primary" }, "Erase everything");
  const download = h("button", { type: "button", class: "mg-button" }, "Download my work");
  const cancel = h("button", { type: "button", class: "mg-button mg-button--quiet" }, "Cancel");
  const confirm = h(
    "div",
    { class: "mg-erase__confirm", hidden: true },
    h(
      "p",
      {},
      "This deletes your code, progress and everything else this course keeps in this browser. Download your work first if you may want it again.",
    ),
    download,
    " ",
    erase,
    " ",
    cancel,
  );
  const open = h("button", { type: "button", class: "mg-button mg-button--quiet" }, "Erase my data…");
  open.addEventListener("click", () => {
    confirm.hidden = false;
    said.replaceChildren();
    download.focus();
  });
  download.addEventListener("click", () => said.replaceChildren(downloadWork()));
  cancel.addEventListener("click", () => {
    confirm.hidden = true;
    said.replaceChildren("Nothing was erased.");
    open.focus();
  });
  erase.addEventListener("click", async () => {
    confirm.hidden = true;
    open.disabled = true;
    said.replaceChildren("Erasing…");
    said.replaceChildren(await eraseAll());
  });
  root.replaceChildren(h("div", { class: "mg-erase" }, open, confirm, said));
}

/** Deletes what the course stored; says what happened. */
export async function eraseAll() {
  markErased();
  for (const storage of [localStorage, sessionStorage]) {
    for (const key of Object.keys(storage)) if (OURS(key)) storage.removeItem(key);
  }
  const problems = [];
  const settle = (what, promise) => promise.catch((error) => problems.push(`${what} (${error.message})`));
  // the service worker first: a copy it is still making would put its cache back
  await settle("the service worker", unregister());
  await Promise.all([settle("Python's saved memory", deleteDatabases()), settle("the offline copy", deleteCaches())]);
  if (problems.length) return `Not everything could be erased: ${problems.join("; ")}.`;
  return "Everything this course kept in this browser is erased. Pages you open from now on start afresh; close this tab to forget the work it still shows.";
}

async function deleteDatabases() {
  const names = indexedDB.databases
    ? (await indexedDB.databases()).map(({ name }) => name)
    : [`micrograd:${PATH}:python-memory`];
  await Promise.all(names.filter(OURS).map(deleteDatabase));
}

const deleteDatabase = (name) =>
  new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = resolve;
    request.onerror = () => reject(request.error);
  });

async function deleteCaches() {
  if (!globalThis.caches) return;
  await Promise.all((await caches.keys()).filter(OURS).map((name) => caches.delete(name)));
}

async function unregister() {
  if (!navigator.serviceWorker) return;
  const registration = await navigator.serviceWorker.getRegistration(SITE.href);
  if (registration && new URL(registration.scope).pathname === PATH) await registration.unregister();
}
