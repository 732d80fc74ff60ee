/**
 * A lesson's graph redrawn in the page from the session's DOT (runner/notebook.py `graph_json`),
 * laid out by the same pinned Graphviz the build uses (@viz-js/viz), in a worker of its own
 * (viz-worker.js, from the site's own files: `worker-src 'self'`, course/csp.py) that only a
 * redraw starts, so that its WebAssembly never holds the page's main thread.
 */

import { cleanSvg } from "./clean-svg.js";

let viz = null; // the worker, once a graph is redrawn
let ids = 0;
const waiting = new Map(); // request id -> {resolve, reject}

/** The SVG element of `dot`, made fit to inline as the build's drawings are (`cleanSvg`). */
export async function drawDot(dot) {
  const svg = cleanSvg(await layout(dot));
  const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  if (parsed.nodeName !== "svg") throw new Error("Graphviz gave no drawing");
  return document.importNode(onlyDrawn(parsed), true);
}

// what Graphviz draws a lesson's graph with; a link (DOT's URL, href), an image or anything else
// a DOT of the runner's making could ask for is not the page's to show
const DRAWN = new Set(["svg", "g", "polygon", "polyline", "ellipse", "path", "text", "tspan"]);

/** `svg` with only drawing in it: links unwrapped, other elements and any link or handler gone. */
function onlyDrawn(svg) {
  for (const el of svg.querySelectorAll("*")) {
    if (!DRAWN.has(el.localName)) el.replaceWith(...(el.localName === "a" ? el.childNodes : []));
  }
  for (const el of [svg, ...svg.querySelectorAll("*")]) {
    for (const { name } of [...el.attributes]) if (/^on|href$/i.test(name)) el.removeAttribute(name);
  }
  return svg;
}

/**
 * Redraws `figure` (a lesson's `[data-graph]`, its wide and narrow drawings) in place from the
 * session's objects: `graph.expr` drawn as the build draws it, with the screen reader's
 * sentence, each request within `seconds`. False when the session cannot draw it (the name is
 * gone, or not a Value).
 */
export async function redraw(session, graph, figure, seconds) {
  const canvases = [...(figure?.querySelectorAll(".mg-graph__canvas") ?? [])];
  const drawings = [];
  for (const canvas of canvases) {
    const direction = canvas.classList.contains("mg-graph__canvas--narrow") ? "TB" : "LR";
    const answer = await session.request("cell-graph", { expr: graph.expr, direction }, seconds);
    if (typeof answer.dot !== "string") return false;
    const svg = await drawDot(answer.dot);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", String(answer.words ?? ""));
    drawings.push([canvas, svg]);
  }
  for (const [canvas, svg] of drawings) canvas.replaceChildren(svg);
  return drawings.length > 0;
}

/** Graphviz's SVG of `dot`, from its worker (started at the first call, again after a failure). */
function layout(dot) {
  viz ??= startViz();
  const id = ++ids;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    viz.postMessage({ id, dot });
  });
}

function startViz() {
  const worker = new Worker(new URL(`./${VIZ_WORKER}`, import.meta.url), { type: "module", name: "graphviz" });
  worker.onmessage = ({ data }) => {
    const request = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.error) request?.reject(new Error(data.error));
    else request?.resolve(data.svg);
  };
  worker.onerror = (event) => {
    event.preventDefault(); // the graph stays as it was, marked out of date
    for (const request of waiting.values()) request.reject(new Error(event.message || "Graphviz could not start"));
    waiting.clear();
    viz = null;
    worker.terminate();
  };
  return worker;
}
