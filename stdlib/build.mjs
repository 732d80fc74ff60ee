// Builds the trimmed standard library, compiled to bytecode, that the worker loads instead of
// Pyodide's python_stdlib.zip (sources only, compiled at every start): see trim.py.
// It must be rebuilt for every Pyodide version, so the site build runs it (course/assets.py).
// Usage: node stdlib/build.mjs --course-zip <python.zip> --out <zip>
// Prints the top-level modules the zip holds, as JSON.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadPyodide } from "pyodide";

const COURSE_DIR = "/home/pyodide/course"; // where widget/src/worker.js unpacks python.zip
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const { values } = parseArgs({ options: { "course-zip": { type: "string" }, out: { type: "string" } } });
if (!values["course-zip"] || !values.out) {
  console.error("usage: node stdlib/build.mjs --course-zip <python.zip> --out <zip>");
  process.exit(2);
}

const pyodide = await loadPyodide({ stdout: () => {}, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.writeFile("trim_stdlib.py", readFileSync(here("trim.py"))); // in the cwd, on sys.path
const trim = pyodide.pyimport("trim_stdlib");
trim.start();
// what the worker does once Pyodide has loaded
pyodide.unpackArchive(new Uint8Array(readFileSync(values["course-zip"])), "zip", { extractDir: COURSE_DIR });
trim.grade_everything(COURSE_DIR);
const [zip, names] = trim.finish(readFileSync(here("fallback.py"), "utf8")).toJs();
writeFileSync(values.out, zip);
process.stdout.write(JSON.stringify(names));
