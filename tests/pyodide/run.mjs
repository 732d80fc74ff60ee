// Runs Python source under the real Pyodide (the browser's runtime) in Node, with the repository
// on sys.path, and prints the value of its last expression (a string).
// Usage: node tests/pyodide/run.mjs < source.py > value.txt
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const source = readFileSync(0, "utf8");
const pyodide = await loadPyodide();
pyodide.mountNodeFS("/repo", repo);
pyodide.runPython('import sys; sys.path.insert(0, "/repo")');
process.stdout.write(String(pyodide.runPython(source)));
