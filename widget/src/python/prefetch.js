/**
 * Python, loaded ahead while a learner reads the lessons that lead to an exercise: so that the
 * exercise page starts like a repeat visit (Python restored from its memory snapshot, every file
 * from the browser's caches) instead of downloading ~12 MB then.
 *
 * On a page without a widget, once it has loaded and the browser is idle, one runner loads
 * Python as a first visit would and saves its memory snapshot, then a judge its warm one
 * (python.js `loadAhead`, load-ahead.js), and the judge's grader.zip is fetched at low
 * priority. The page's own load, fonts and first paint come first; the work itself is in
 * workers. Not when the browser asks to save data or the connection is 2G-class, and once per
 * browser session and build (the start page says so).
 */
import { python } from "./python.js";
import { wasErased } from "../shared/erased.js";

const GRADER_URL = new URL(`../${PYTHON_ASSETS.grader}`, import.meta.url);
// the grader's path names the build: a new build's lessons load its Python ahead again
const DONE_KEY = `micrograd:${GRADER_URL.pathname}:loaded-ahead`;
// a learner who opens a lesson and moves on at once does not need Python yet
const SETTLE_MS = 1000;
const IDLE_TIMEOUT_MS = 5000;

let scheduled = false;

/** Loads Python ahead from this page, later, unless `whyNot()` says otherwise; a page that
 * does not says why with a `python-ahead-skipped` mark. Resolves once it has ended, or at once
 * when it does not load. */
export function loadAheadWhenIdle() {
  const why = scheduled ? "an earlier page of this visit loads it" : whyNot();
  if (why) {
    skipped(why);
    return afterLoad();
  }
  scheduled = true;
  return afterLoad()
    .then(() => new Promise((resolve) => setTimeout(resolve, SETTLE_MS)))
    .then(idle)
    .then(loadAhead);
}

/** Why Python is not loaded ahead from this page, or null. */
export function whyNot() {
  const connection = navigator.connection;
  if (connection?.saveData) return "the browser asks to save data";
  if (/(^|-)2g$/.test(connection?.effectiveType ?? "")) return "the connection is 2G-class";
  if (remembered()) return "Python was loaded ahead already in this session";
  return null;
}

async function loadAhead() {
  const why = whyNot(); // the connection may have changed meanwhile
  if (why) return skipped(why);
  performance.mark("python-ahead-start");
  const grader = fetch(GRADER_URL, { priority: "low" })
    .then((response) => response.arrayBuffer())
    .catch(() => {}); // the exercise page fetches it again, and says what failed
  const [how] = await Promise.all([python.loadAhead(), grader]);
  performance.mark("python-ahead-end", { detail: { how } });
  if (how === "ready") remember();
}

const skipped = (why) => void performance.mark("python-ahead-skipped", { detail: { why } });

const afterLoad = () =>
  document.readyState === "complete"
    ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));

const idle = () =>
  new Promise((resolve) =>
    window.requestIdleCallback ? requestIdleCallback(resolve, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(resolve),
  );

function remembered() {
  try {
    return sessionStorage.getItem(DONE_KEY) !== null;
  } catch {
    return false;
  }
}

function remember() {
  if (wasErased()) return;
  try {
    sessionStorage.setItem(DONE_KEY, String(Date.now()));
  } catch {
    // storage disabled: a later lesson loads Python ahead again, from the browser's caches
  }
}

/** Whether this session's lessons have loaded Python ahead: the status line says so. */
export const loadedAhead = remembered;
