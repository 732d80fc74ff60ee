/**
 * Python's loading state, shown: the status line under a widget (progress, then "Python ready",
 * or what went wrong and "Try again"), and `loadingProgress()`, the same progress where a
 * learner who pressed Run too early is looking.
 *
 * A screen reader hears each change of state and each quarter of the download, from a polite
 * live region of its own; the visible text changes with every chunk and is not live.
 */
import { h } from "../shared/dom.js";
import { loadedAhead } from "../python/prefetch.js";
import { python } from "../python/python.js";

const MB = (bytes) => (bytes / 1e6).toFixed(1);

function describe(status) {
  if (status.state === "idle") return "Python starts loading when the page is idle.";
  if (status.state === "ready" && status.grader === "loading") return "Loading the grader…";
  if (status.state === "ready")
    return loadedAhead() ? "Python ready (loaded while you read the lessons)" : "Python ready";
  if (status.state === "failed") return `Python could not start: ${status.message}`;
  if (!status.loaded) return "Loading Python…";
  if (!status.total || status.loaded >= status.total) return "Starting Python…";
  // the share of the files that has arrived, of the bytes the host sends
  return `Loading Python: ${Math.floor((100 * status.loaded) / status.total)}% of ${MB(status.sent ?? status.total)} MB`;
}

/** What is said aloud for a status, or null when nothing new happened since `last`. */
function spoken(status, last) {
  const quarter = status.state === "loading" && status.total ? Math.floor((4 * status.loaded) / status.total) : -1;
  const key = `${status.state}:${Math.min(quarter, 4)}:${status.grader ?? ""}`;
  if (key === last.key) return null;
  last.key = key;
  if (status.state === "loading" && quarter > 0 && quarter < 4) return `Python ${quarter * 25}% loaded`;
  if (status.state === "loading") return quarter < 0 || quarter === 0 ? "Loading Python" : null;
  return describe(status);
}

/** A text and a progress bar that follow Python's download; returns a function that stops. */
function follow(text, bar) {
  return python.subscribe((status) => {
    text.textContent = describe(status);
    const downloading = status.state === "loading" && status.total > 0 && status.loaded < status.total;
    bar.hidden = !downloading;
    if (downloading) bar.value = status.loaded / status.total;
  });
}

const progressBar = (className) => h("progress", { class: className, max: "1", "aria-label": "Python download" });

/** The status line at the bottom of a widget. */
export function statusLine() {
  const text = h("span", { class: "mg-status__text" });
  const bar = progressBar("mg-status__bar");
  const announcer = h("span", { class: "mg-visually-hidden", role: "status" });
  const retry = h(
    "button",
    { type: "button", class: "mg-button mg-button--quiet", hidden: true, onclick: () => python.restart() },
    "Try again",
  );
  const el = h(
    "div",
    { class: "mg-status" },
    h("span", { class: "mg-status__dot", "aria-hidden": "true" }),
    text,
    bar,
    retry,
    announcer,
  );
  follow(text, bar);
  const last = { key: "" };
  python.subscribe((status) => {
    // the grader still loading is loading, to the eye too (its dot) and to whoever waits on it
    el.dataset.state = status.grader === "loading" ? "loading" : status.state;
    retry.hidden = status.state !== "failed";
    const said = spoken(status, last);
    if (said) announcer.textContent = said;
  });
  return el;
}

/** Python's progress, for a result waiting on it: `{el, remove()}` (`remove` once it is shown). */
export function loadingProgress() {
  const text = h("span", { class: "mg-waiting__text" });
  const bar = progressBar("mg-waiting__bar");
  return { el: h("p", { class: "mg-waiting" }, text, " ", bar), remove: follow(text, bar) };
}
