/** The status line: Python's download progress, then "Python ready" (or what went wrong). */
import { h } from "../page/dom.js";
import { python } from "../page/python.js";

const MB = (bytes) => (bytes / 1e6).toFixed(1);

function describe(status) {
  if (status.state === "idle") return "Python starts loading when the page is idle.";
  if (status.state === "ready") return "Python ready";
  if (status.state === "failed") return `Python could not start: ${status.message}`;
  if (!status.loaded) return "Loading Python…";
  if (!status.total || status.loaded >= status.total) return `Starting Python… (${MB(status.loaded)} MB downloaded)`;
  return `Loading Python: ${MB(status.loaded)} of ${MB(status.total)} MB`;
}

export function statusLine() {
  const text = h("span", { class: "mg-status__text" });
  const bar = h("progress", { class: "mg-status__bar", max: "1", "aria-hidden": "true" });
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
  );
  python.subscribe((status) => {
    el.dataset.state = status.state;
    text.textContent = describe(status);
    const downloading = status.state === "loading" && status.total > 0 && status.loaded < status.total;
    bar.hidden = !downloading;
    if (downloading) bar.value = status.loaded / status.total;
    retry.hidden = status.state !== "failed";
  });
  return el;
}
