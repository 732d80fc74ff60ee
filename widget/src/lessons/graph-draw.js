/**
 * A lesson's graph redrawn in the page from the session's DOT (runner/notebook.py `graph_json`),
 * laid out by the same pinned Graphviz the build uses (@viz-js/viz), in a chunk of its own that
 * only a redraw loads. Its WebAssembly is compiled under the page's policy ('wasm-unsafe-eval',
 * course/csp.py); no file is fetched for it.
 */

let viz = null;

/** The SVG element of `dot`, made fit to inline as the build's drawings are (`cleanSvg`). */
export async function drawDot(dot) {
  viz ??= import("@viz-js/viz").then((module) => module.instance());
  const svg = cleanSvg((await viz).renderString(dot, { format: "svg" }));
  const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  if (parsed.nodeName !== "svg") throw new Error("Graphviz gave no drawing");
  return document.importNode(parsed, true);
}

/**
 * Graphviz's SVG as course/prerender.py `clean_svg` makes it: no prolog, comments, tooltips or
 * ids (several drawings share a page), and its size in pixels that CSS may shrink. Pure.
 */
export function cleanSvg(svg) {
  const pixels = (_, name, points) => `${name}="${Math.round(Number(points) * (4 / 3))}"`;
  let done = 0;
  return svg
    .slice(svg.indexOf("<svg"))
    .replace(/<!--[\s\S]*?-->\n?/g, "")
    .replace(/<title>[\s\S]*?<\/title>\n?/g, "")
    .replace(/ id="[^"]*"/g, "")
    .replace(/(width|height)="([\d.]+)pt"/g, (match, name, points) =>
      done++ < 2 ? pixels(match, name, points) : match,
    )
    .trim();
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
