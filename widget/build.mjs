// Bundles the widget for the site: widget.js (page module), worker.js (module worker), widget.css.
// Usage: node widget/build.mjs --outdir <dir>
import { build } from "esbuild";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const { values } = parseArgs({ options: { outdir: { type: "string" } } });
if (!values.outdir) {
  console.error("usage: node widget/build.mjs --outdir <dir>");
  process.exit(2);
}

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

await build({
  entryPoints: [
    { in: here("src/main.js"), out: "widget" },
    { in: here("src/worker.js"), out: "worker" },
    { in: here("widget.css"), out: "widget" },
  ],
  outdir: values.outdir,
  bundle: true,
  format: "esm",
  minify: true,
  target: ["es2022"],
  legalComments: "eof",
  logLevel: "warning",
});
