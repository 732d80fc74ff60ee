// Bundles two checkouts' widget/src/editor/editor.js, as widget/build.mjs minifies them, for
// bench/editor_cost.py. Usage: node bench/editor_cost.mjs <outdir> <checkout A> <checkout B>
import { build } from "esbuild";

const [outdir, ...checkouts] = process.argv.slice(2);
await Promise.all(
  checkouts.map((checkout, i) =>
    build({
      entryPoints: [`${checkout}/widget/src/editor/editor.js`],
      outfile: `${outdir}/${"AB"[i]}.js`,
      bundle: true,
      minify: true,
      format: "esm",
      target: ["es2022"],
      nodePaths: [`${process.cwd()}/node_modules`], // this checkout's packages serve both
      logLevel: "warning",
    }),
  ),
);
