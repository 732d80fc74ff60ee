// Renders a page's diagrams and formulas at build time, offline: Graphviz (WebAssembly, from
// @viz-js/viz) turns DOT into SVG, made fit to inline as the lessons' redrawn graphs are
// (widget/src/lessons/clean-svg.js), and KaTeX turns TeX into HTML.
// Reads {"graphs": [dot, ...], "math": [{"tex", "display"}, ...]} on stdin and writes
// {"graphs": [svg, ...], "math": [html, ...]} on stdout; a formula or diagram it cannot render,
// {"error": "what, and which input"}, for the build to say in one line.
import { instance } from "@viz-js/viz";
import katex from "katex";
import { cleanSvg } from "../widget/src/lessons/clean-svg.js";

const read = async (stream) => {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
};

const job = JSON.parse(await read(process.stdin));
const viz = job.graphs.length ? await instance() : null;
const out = { graphs: [], math: [] };

try {
  for (const source of job.graphs) out.graphs.push(cleanSvg(viz.renderString(source, { format: "svg" })));
  for (const { tex, display } of job.math) {
    try {
      out.math.push(katex.renderToString(tex, { displayMode: display, throwOnError: true }));
    } catch (error) {
      throw new Error(`KaTeX cannot render ${JSON.stringify(tex)}: ${error.message}`, { cause: error });
    }
  }
} catch (error) {
  process.stdout.write(JSON.stringify({ error: error.message.replace(/\s+/g, " ") }));
  process.exit(0);
}
process.stdout.write(JSON.stringify(out));
