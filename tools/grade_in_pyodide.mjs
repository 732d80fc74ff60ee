// Runs the grader under the real Pyodide (the browser's runtime) in Node.
// Usage: node tools/grade_in_pyodide.mjs < requests.json > results.json
// Input: [{exercise, bodies}, ...]; output: the grader's result for each, in order.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const repo = fileURLToPath(new URL("..", import.meta.url));
const requests = readFileSync(0, "utf8");

const pyodide = await loadPyodide();
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("requests_json", requests);
const results = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/repo")
from grader import grade
json.dumps([grade(r["exercise"], r["bodies"]) for r in json.loads(requests_json)])
`);
process.stdout.write(results);
