// Builds what Python's workers import, compiled to bytecode by Pyodide itself: the standard
// library trimmed to what the course uses (Pyodide's python_stdlib.zip holds only sources,
// which CPython compiles at every start: see trim.py), and the course's two archives.
// It must be rebuilt for every Pyodide version, so the site build runs it (course/assets.py).
// Usage: node bytecode/build.mjs --runner-zip <zip> --grader-zip <zip> --out-dir <folder>
// Writes python_stdlib.zip, runner.zip and grader.zip into <folder>; prints the top-level
// modules the standard library zip holds, as JSON.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadPyodide } from "pyodide";

const COURSE_DIR = "/home/pyodide/course"; // the archives, extracted for grade_everything
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const options = { "runner-zip": { type: "string" }, "grader-zip": { type: "string" }, "out-dir": { type: "string" } };
const { values } = parseArgs({ options });
if (!values["runner-zip"] || !values["grader-zip"] || !values["out-dir"]) {
  console.error("usage: node bytecode/build.mjs --runner-zip <zip> --grader-zip <zip> --out-dir <folder>");
  process.exit(2);
}

const pyodide = await loadPyodide({ stdout: () => {}, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.writeFile("trim_stdlib.py", readFileSync(here("trim.py"))); // in the cwd, on sys.path
const trim = pyodide.pyimport("trim_stdlib");
// extracted before the count starts: the workers import from the archives as they are
// (zipimport, built in), so what extracting imports is none of theirs
const archives = { "runner.zip": values["runner-zip"], "grader.zip": values["grader-zip"] };
for (const archive of Object.values(archives))
  pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: COURSE_DIR });
trim.start();
trim.grade_everything(COURSE_DIR);
const [zip, names] = trim.finish(readFileSync(here("fallback.py"), "utf8")).toJs();
writeFileSync(join(values["out-dir"], "python_stdlib.zip"), zip);
for (const [name, archive] of Object.entries(archives))
  writeFileSync(join(values["out-dir"], name), trim.compile_archive(new Uint8Array(readFileSync(archive))).toJs());
process.stdout.write(JSON.stringify(names));
