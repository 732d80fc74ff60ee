// Runs the grader under the real Pyodide (the browser's runtime) in Node.
// Usage: node tests/pyodide/grade.mjs [--stdlib <zip> [--fallback]] < requests.json > results.json
// Input: [{exercise, bodies}, ...]; output: the grader's result for each, in order.
// --stdlib: start from that standard library (the build's trimmed one) instead of Pyodide's own;
// --fallback: and import what it lacks from the full one, as the browser's worker does.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadPyodide } from "pyodide";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const fullStdlib = new URL("../../node_modules/pyodide/python_stdlib.zip", import.meta.url);
const { values } = parseArgs({ options: { stdlib: { type: "string" }, fallback: { type: "boolean" } } });
const requests = readFileSync(0, "utf8");

const pyodide = await loadPyodide(values.stdlib ? { stdLibURL: values.stdlib } : {});
if (values.fallback) {
  const writeFull = (path) => {
    process.stderr.write("fetched the full standard library\n");
    pyodide.FS.writeFile(path, new Uint8Array(readFileSync(fullStdlib)));
  };
  pyodide.pyimport("_stdlib_fallback").install(writeFull);
}
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("requests_json", requests);
const results = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/repo")
from grader import grade
json.dumps([grade(r["exercise"], r["bodies"]) for r in json.loads(requests_json)])
`);
process.stdout.write(results);
