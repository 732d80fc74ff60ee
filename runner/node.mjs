// The runner's half of grading in Pyodide under Node, sealed, for hand-ins graded on an
// instructor's machine (grader/sealed.py starts it). The learner's code runs here exactly as in
// the browser's runner: in a fresh Python for every run, restored from a memory snapshot made
// once per regrade. This process can do nothing else: Node's permission model lets it read only
// Pyodide's own files, this one and the snapshot (no other file, no writing, no processes), code
// is never made from strings, and before any learner code runs every way out to the network or
// the host that Node still offers is removed.
//
// `node node.mjs make`: reads `{files: {path: source}, data}` (the runner's modules and
// grader/runner_data.py's data) on one line, imports the runner, reads that data and writes the
// memory snapshot to stdout. No learner code runs in it.
//
// `node node.mjs run SNAPSHOT`: protocol, one JSON document per line. In: first `{files}`, then
// one `{exercise, bodies}` per run, each only after `{ready: true}` came out. Out: `{ready:
// true}` once a fresh Python waits (restoring is never part of a run's time), then one
// `{observation}` (runner/observe.py's report, as JSON text) or `{crashed: message}` per run.
// After a crash the process ends: the grader starts another.
import { constants, readFileSync } from "node:fs";
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
const quiet = { stdout: () => {}, stderr: () => {} };
const [mode, snapshotPath] = process.argv.slice(2);
const setup = JSON.parse((await lines.next()).value);

if (mode === "make") {
  const pyodide = await loadPyodide({ ...quiet, _makeSnapshot: true });
  writeFiles(pyodide, setup.files);
  // where runner.observe reads it, as in runner.zip: read once, into the snapshot
  pyodide.FS.writeFile("/course/runner/data.json", JSON.stringify(setup.data));
  pyodide.runPython("import sys; sys.path.insert(0, '/course'); import runner.observe as o; o.data()");
  process.stdout.write(pyodide.makeMemorySnapshot());
} else {
  const snapshot = readFileSync(snapshotPath);
  compileOnce(readFileSync(new URL("pyodide.asm.wasm", import.meta.resolve("pyodide"))));
  seal();
  let observe = await fresh();
  for (let line = await lines.next(); !line.done; line = await lines.next()) {
    const { exercise, bodies } = JSON.parse(line.value);
    try {
      say({ observation: observe.observe_json(exercise, JSON.stringify(bodies)) });
    } catch (error) {
      say({ crashed: String(error?.message ?? error).slice(0, 2000) });
      process.exit(3);
    }
    observe = await fresh(); // this run's Python is dropped whole
  }

  /** runner.observe in a Python restored from the snapshot, once it is ready to run. */
  async function fresh() {
    const pyodide = await loadPyodide({ ...quiet, _loadSnapshot: snapshot });
    writeFiles(pyodide, setup.files); // the snapshot holds memory, not files
    const found = pyodide.pyimport("runner.observe");
    say({ ready: true });
    return found;
  }
}

/** Pyodide's WebAssembly compiled once for every Python this process restores, not once each. */
function compileOnce(wasm) {
  const module = new WebAssembly.Module(wasm);
  const { instantiate } = WebAssembly;
  WebAssembly.instantiate = async (source, imports) =>
    source instanceof WebAssembly.Module
      ? instantiate(source, imports)
      : { module, instance: await instantiate(module, imports) };
}

function writeFiles(pyodide, files) {
  for (const [path, source] of Object.entries(files)) {
    pyodide.FS.mkdirTree(`/course/${path.split("/").slice(0, -1).join("/")}`);
    pyodide.FS.writeFile(`/course/${path}`, source);
  }
}

/** Removes what Node offers beyond the permission model: the network, other processes, the
 * environment, native code. */
function seal() {
  for (const name of ["fetch", "WebSocket", "EventSource", "Request", "Response", "Headers"]) {
    delete globalThis[name];
  }
  for (const name of ["getBuiltinModule", "_linkedBinding", "dlopen", "kill", "chdir"]) {
    process[name] = undefined;
  }
  process.env = {};
}
