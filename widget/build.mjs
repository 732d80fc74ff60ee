// Bundles the widget for the site: widget.js (page module), worker.js (module worker), widget.css.
// Usage: node widget/build.mjs --outdir <dir> --python-assets <json>
// <json> tells the worker where the build put Pyodide, the standard library and python.zip
// (course/assets.py writes them first); the worker's bundle sees it as the constant PYTHON_ASSETS.
import { build } from "esbuild";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const { values } = parseArgs({
  options: { outdir: { type: "string" }, "python-assets": { type: "string" } },
});
if (!values.outdir || !values["python-assets"]) {
  console.error("usage: node widget/build.mjs --outdir <dir> --python-assets <json>");
  process.exit(2);
}

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const common = {
  outdir: values.outdir,
  bundle: true,
  format: "esm",
  minify: true,
  target: ["es2022"],
  legalComments: "eof",
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    entryPoints: [
      { in: here("src/main.js"), out: "widget" },
      { in: here("widget.css"), out: "widget" },
    ],
  }),
  build({
    ...common,
    entryPoints: [{ in: here("src/worker.js"), out: "worker" }],
    define: { PYTHON_ASSETS: JSON.stringify(JSON.parse(values["python-assets"])) },
  }),
]);
