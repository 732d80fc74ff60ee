// The runner's half of grading in Pyodide under Node, sealed, for hand-ins graded on an
// instructor's machine (grader/regrade.py starts it). The learner's code runs here exactly as in
// the browser's runner, and this process can do nothing else: Node's permission model lets it
// read only Pyodide's own files and this one (no other file, no writing, no processes), code is
// never made from strings, and before any learner code runs every way out to the network or
// the host that Node still offers is removed.
//
// Protocol, one JSON document per line. In: first `{files: {path: source}, data}` (the runner's
// modules and grader/runner_data.py's data), then one `{exercise, bodies}` per run. Out: one
// `{observation}` (runner/observe.py's report, as JSON text) or `{crashed: message}` per run.
import { constants } from "node:fs";
import { createInterface } from "node:readline";

// Pyodide's file system module reads Node's file constants through process.binding, which the
// permission model refuses: hand it those and nothing else
process.binding = (name) => {
  if (name === "constants") return { fs: constants };
  throw new Error(`process.binding("${name}") is not available here`);
};
const { loadPyodide } = await import("pyodide");
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
const say = (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`);

const setup = JSON.parse((await lines.next()).value);
const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
for (const [path, source] of Object.entries(setup.files)) {
  pyodide.FS.mkdirTree(`/course/${path.split("/").slice(0, -1).join("/")}`);
  pyodide.FS.writeFile(`/course/${path}`, source);
}
pyodide.runPython("import sys; sys.path.insert(0, '/course')");
const observe = pyodide.pyimport("runner.observe");
observe.use_data(pyodide.toPy(setup.data));
seal();

for (let line = await lines.next(); !line.done; line = await lines.next()) {
  const { exercise, bodies } = JSON.parse(line.value);
  try {
    say({ observation: observe.observe_json(exercise, JSON.stringify(bodies)) });
  } catch (error) {
    say({ crashed: String(error?.message ?? error).slice(0, 2000) });
  }
}

/** Removes what Node offers beyond the permission model: the network, other processes, the
 * environment, native code. */
function seal() {
  for (const name of ["fetch", "WebSocket", "EventSource", "Request", "Response", "Headers"]) {
    delete globalThis[name];
  }
  for (const name of ["getBuiltinModule", "binding", "_linkedBinding", "dlopen", "kill", "chdir"]) {
    process[name] = undefined;
  }
  process.env = {};
}
