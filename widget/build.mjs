// Bundles the browser code for the site, into <outdir>:
//   widget.js    the page's module (src/entry/main.js): widgets, quizzes, the page's Python
//   worker-<hash>.js  Python's module worker (src/worker/main.js), named by its content: a tab
//                opened before a redeploy never starts the new deploy's worker (ARCHITECTURE.md)
//   viz-worker-<hash>.js  Graphviz for the lessons' redrawn graphs (src/lessons/viz-worker.js)
//   early.js     a classic script the build inlines first in a page's <head> (src/entry/early-start.js)
//   widget.css   the styles (styles/)
// Usage: node widget/build.mjs --outdir <dir> --python-assets <json>
// <json> says where the build put Pyodide, the standard library and python.zip (course/assets.py
// writes them first), and whether memory snapshots are on; every bundle sees it as the constant
// PYTHON_ASSETS; the page's module also sees COURSE_WORKER and VIZ_WORKER, the workers' file names.

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values } = parseArgs({
  options: { outdir: { type: "string" }, "python-assets": { type: "string" } },
});
if (!values.outdir || !values["python-assets"]) {
  console.error("usage: node widget/build.mjs --outdir <dir> --python-assets <json>");
  process.exit(2);
}

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
// UNMINIFIED=1 in the environment keeps the bundles readable, for debugging
const common = {
  outdir: values.outdir,
  bundle: true,
  minify: !process.env.UNMINIFIED,
  target: ["es2022"],
  legalComments: "eof",
  logLevel: "warning",
  define: { PYTHON_ASSETS: JSON.stringify(JSON.parse(values["python-assets"])) },
};

// the workers first: the page's module is told their names
const workerFile = await buildWorker("src/worker/main.js", "worker");
const vizFile = await buildWorker("src/lessons/viz-worker.js", "viz-worker");

await Promise.all([
  build({
    ...common,
    format: "esm",
    splitting: true, // the training widget and uPlot: a chunk of their own, for its page only
    // beside widget.js: the modules find the worker and the site by URLs relative to their own
    chunkNames: "[name]-[hash]",
    define: { ...common.define, COURSE_WORKER: JSON.stringify(workerFile), VIZ_WORKER: JSON.stringify(vizFile) },
    entryPoints: [{ in: here("src/entry/main.js"), out: "widget" }],
  }),
  build({ ...common, entryPoints: [{ in: here("styles/widget.css"), out: "widget" }] }),
  build({ ...common, format: "iife", entryPoints: [{ in: here("src/entry/early-start.js"), out: "early" }] }),
]);

/** Bundles a module worker, named by its content; its file's name. */
async function buildWorker(entry, out) {
  const built = await build({
    ...common,
    format: "esm",
    metafile: true,
    entryNames: "[name]-[hash]",
    entryPoints: [{ in: here(entry), out }],
  });
  return Object.keys(built.metafile.outputs)
    .map((path) => path.split("/").at(-1))
    .find((name) => new RegExp(`^${out}-\\w+\\.js$`).test(name));
}
