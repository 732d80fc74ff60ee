/**
 * Offline after one visit, and safe across redeploys (ARCHITECTURE.md, "Offline and redeploys").
 * Every page names the deploy it belongs to in `<meta name="course-deploy">`, and the service
 * worker to register, if the course ships one (course/offline.py). This module registers that
 * worker (widget/isolate.js) once Python is ready and the browser idle, so that precaching the
 * site never competes with a first verdict; offers a new deploy, once it is precached, with
 * "reload"; and says when the host serves another deploy than the page's own.
 */
import { h } from "../shared/dom.js";
import { wasErased } from "../shared/erased.js";

const META = 'meta[name="course-deploy"]';
const SITE = new URL("../../", import.meta.url); // this bundle is assets/course/widget.js
const LISTING = new URL("deploy.json", SITE);
const IDLE_TIMEOUT_MS = 5000;
export const NEW_VERSION = "A new version of the course is ready: reload (your code is kept).";
export const UPDATED = "This course was updated since the page was opened: reload (your code is saved).";

/** The deploy of the page this module came with: instant navigation swaps pages, not it. */
export const OWN_DEPLOY = pageDeploy();

function pageDeploy() {
  return document.querySelector(META)?.content ?? null;
}

/** Whether the page now shown (instant navigation brought it) is of another deploy. */
export const pageOfAnotherDeploy = () => pageDeploy() !== OWN_DEPLOY;

let registered = false;

/** Registers the service worker once `ready` (a promise: Python ready, or nothing to wait for)
 * has settled and the browser is idle. */
export function keepOffline(ready) {
  const script = document.querySelector(META)?.dataset.serviceWorker;
  if (registered || !script || !window.isSecureContext || !navigator.serviceWorker) return;
  // `mkdocs serve` (make dev) rebuilds at each change: a copy of one build would hide the next
  if (typeof window.livereload === "function") return;
  registered = true;
  ready
    .then(idle)
    .then(() => {
      if (wasErased()) return null;
      const hadController = Boolean(navigator.serviceWorker.controller);
      return navigator.serviceWorker
        .register(new URL(script, SITE), { scope: SITE.pathname })
        .then((registration) => registration && watchUpdates(registration, hadController));
    })
    .catch((error) => console.warn(`The course is not kept for offline use: ${error.message}`));
}

const idle = () =>
  new Promise((resolve) =>
    window.requestIdleCallback ? requestIdleCallback(resolve, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(resolve),
  );

/** Offers a new deploy's worker once it has precached everything (it then waits), and says so
 * when another tab let one take over under this page. */
function watchUpdates(registration, hadController) {
  let asked = false;
  const offer = () => {
    if (!registration.waiting || !navigator.serviceWorker.controller) return;
    say(NEW_VERSION, () => {
      asked = true;
      registration.waiting?.postMessage({ type: "take-over" });
    });
  };
  const watch = (installing) =>
    installing?.addEventListener("statechange", () => installing.state === "installed" && offer());
  offer();
  watch(registration.installing); // found before this page registered
  registration.addEventListener("updatefound", () => watch(registration.installing));
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (asked) location.reload();
    else if (hadController) sayUpdated();
  });
}

/** Whether the host now serves another deploy than this page's (false when it cannot tell:
 * offline, the service worker then answering from this page's deploy). */
export async function courseUpdated() {
  if (!OWN_DEPLOY) return false;
  try {
    const answer = await fetch(LISTING, { cache: "no-store" });
    return answer.ok && (await answer.json()).deploy !== OWN_DEPLOY;
  } catch {
    return false;
  }
}

/** Says that this page cannot go on with the deploy the host serves now. */
export function sayUpdated() {
  say(UPDATED, () => location.reload());
}

let banner = null;

/** A bar at the foot of the page, with its one button, which `act()` answers. */
function say(text, act) {
  banner?.remove();
  const reload = h("button", { type: "button", class: "mg-button mg-button--primary", onclick: act }, "Reload");
  banner = h("div", { class: "mg-update", role: "status", "data-course-update": "" }, h("p", {}, text), reload);
  document.body.append(banner);
}
