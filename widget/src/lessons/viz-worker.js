/**
 * Graphviz (the pinned @viz-js/viz, as the build lays out its graphs) in a worker of its own, for
 * the lessons' redrawn graphs (graph-draw.js): DOT in, SVG out. On the page's main thread, its
 * WebAssembly's start and first layout were a task of up to ~250 ms. No learner code runs here.
 */
import { instance } from "@viz-js/viz";

const viz = instance();

self.onmessage = async ({ data: { id, dot } }) => {
  try {
    self.postMessage({ id, svg: (await viz).renderString(String(dot), { format: "svg" }) });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
