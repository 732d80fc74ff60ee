/**
 * Graphviz's SVG made fit to inline in a page, the build's drawings (course/prerender.mjs) and
 * the lessons' redrawn ones alike: no prolog, comments, tooltips or ids (several drawings share
 * a page), and its size in pixels that CSS may shrink. Pure.
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
