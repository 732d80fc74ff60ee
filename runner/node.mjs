// The runner's half of grading in Pyodide under Node, sealed, for hand-ins graded on an
// instructor's machine (grader/cli/sealed.py starts it). The learner's code runs here exactly as in
// the browser's runner. Each hand-in gets a worker of its own, a fresh JavaScript realm ended
// with the hand-in, whose Python is restored from a memory snapshot made once per regrade; after
// each run that Python's whole memory is put back as it was before the first, so that no run
// meets anything an earlier one did. The main thread only passes lines: it holds no learner data
// and no worker can reach it. The WebAssembly is compiled once, here, for every worker.
//
// What a worker can reach: Node's permission model lets this process read only Pyodide's files,
// SES, this file and the snapshot (no other file, no writing, no processes), and code is never
// made from strings. Before any learner code runs, every way out to the network or the host that
// Node still offers is removed, the Python holds no module that leads to JavaScript
// (runner/seal.py), the worker's shared JavaScript objects are frozen (SES's lockdown), and
// Python's file system refuses every write, so that what one run does cannot outlast it.
//
// `node node.mjs make`: reads `{files: {path: source}}` (the runner's modules) on one line,
// imports the runner and writes the memory snapshot to stdout. No learner code runs in it.
//
// `node node.mjs run SNAPSHOT`: protocol, one JSON document per line. In: one request per run
// (runner/seal.py says what it holds), or `{fresh: true}` to end the hand-in's worker and start
// the next one's; each line only after the answer to the one before.
// Out: `{ready: true}` when a worker's Python waits (restoring is never part of a run's time),
// one `{observation}` (the runner's report, as JSON text) or `{crashed: message}` per run.
// After a crash the process ends: the grader starts another.
import { constants, readFileSync } from "node:fs";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

const quiet = { stdout: () => {}, stderr: () => {} };

if (!isMainThread) await worker(workerData);
else if (process.argv[2] === "make") await make();
else await serve(process.argv[3]);

async function make() {
  const lines = await readLines();
  const { files } = JSON.parse((await lines.next()).value);
  const loadPyodide = await pyodideLoader();
  const pyodide = await loadPyodide({ ...quiet, _makeSnapshot: true });
  writeFiles(pyodide, files);
  pyodide.runPython("import sys; sys.path.insert(0, '/course'); import runner.seal");
  process.stdout.write(pyodide.makeMemorySnapshot());
}

/** The main thread: lines in, each to the hand-in's worker, its answers out. The next hand-in's
 * worker starts while this one's runs go on, so that its restore is never waited for. */
async function serve(snapshotPath) {
  const lines = await readLines(); // no files: the snapshot has imported all the runner runs
  const wasm = readFileSync(new URL("pyodide.asm.wasm", import.meta.resolve("pyodide")));
  const start = { module: new WebAssembly.Module(wasm), snapshotPath };
  const say = (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`);
  const sayOrEnd = (answer) => (say(answer), answer.crashed !== undefined && process.exit(3));
  const ready = async (pending) => {
    const found = await pending;
    sayOrEnd(found.ask ? { ready: true } : found);
    return found;
  };
  let current = await ready(handIn(start));
  let next = handIn(start);
  for (let line = await lines.next(); !line.done; line = await lines.next()) {
    if (line.value.startsWith('{"fresh"')) {
      current.end();
      [current, next] = [await ready(next), handIn(start)];
    } else {
      sayOrEnd(await current.ask(line.value));
    }
  }
  current.end();
  (await next).end?.();
}

/** A fresh worker for one hand-in, once its Python is ready: `{ask, end}`, where `ask(line)`
 * gives the answer to a run's request (anything it sends that is not one is a crash); or
 * `{crashed}` when it could not be made ready. */
async function handIn(start) {
  const thread = new Worker(new URL(import.meta.url), {
    workerData: start,
    env: {},
    stdout: true, // what the worker prints goes nowhere, never into this process's answers
    stderr: true,
  });
  thread.stdout.resume();
  thread.stderr.resume();
  const answers = [];
  let waiting = null;
  const answer = (value) => (waiting ? waiting(value) : answers.push(value));
  thread.on("message", (message) => answer(typeof message === "string" ? message : crash(message)));
  thread.on("error", (error) => answer({ crashed: String(error?.message ?? error) }));
  thread.on("exit", (code) => answer({ crashed: `its Python ended (status ${code})` }));
  const next = async () => {
    const got = await (answers.length ? answers.shift() : new Promise((r) => (waiting = r)));
    waiting = null;
    return got;
  };
  const first = await next();
  if (first !== "ready") return typeof first === "object" ? first : { crashed: "Python could not be restored" };
  return {
    ask: async (line) => {
      thread.postMessage(line);
      const got = await next();
      return typeof got === "string" ? { observation: got } : got;
    },
    end: () => thread.terminate(),
  };
}

/** What a worker said of its crash, as `{crashed: text}`, whatever else it sent. */
function crash(message) {
  const said = message?.crashed;
  return { crashed: typeof said === "string" ? said.slice(0, 2000) : "its worker sent something else" };
}

/** A hand-in's worker: its sealed Python, then one run per request. */
async function worker({ module, snapshotPath }) {
  const snapshot = readFileSync(snapshotPath);
  const loadPyodide = await pyodideLoader(module);
  seal();
  const pyodide = await loadPyodide({ ...quiet, _loadSnapshot: snapshot, jsglobals: {} });
  const entry = pyodide.pyimport("runner.seal");
  const run = entry.run_json;
  entry.cut_javascript();
  const fresh = keepFresh(pyodide);
  const post = parentPort.postMessage.bind(parentPort);
  parentPort.on("message", (line) => {
    try {
      post(run(line));
    } catch (error) {
      post({ crashed: String(error?.message ?? error) }); // then nothing more: it is ended
    }
    fresh(); // while the grader judges: the next run meets the Python the first one met
  });
  post("ready");
}

/** Pyodide's loader, its WebAssembly taken from `module` when given (compiled once). */
async function pyodideLoader(module) {
  // Pyodide's file system module reads Node's file constants through process.binding, which
  // the permission model refuses: hand it those and nothing else
  process.binding = (name) => {
    if (name === "constants") return { fs: constants };
    throw new Error(`process.binding("${name}") is not available here`);
  };
  if (module) {
    const { instantiate } = WebAssembly;
    WebAssembly.instantiate = async (source, imports) =>
      source instanceof WebAssembly.Module
        ? instantiate(source, imports)
        : { module, instance: await instantiate(module, imports) };
  }
  await import("../node_modules/ses/dist/ses.mjs"); // defines lockdown(), used once sealed
  return (await import("pyodide")).loadPyodide;
}

/** Freezes what the worker shares between runs and keeps a copy of the ready Python's memory:
 * the function it returns puts that memory back, and the working folder with it. */
function keepFresh(pyodide) {
  const { FS, _module: wasm } = pyodide;
  FS.nodePermissions = (node, perms) => (perms.includes("w") ? 2 : 0); // EACCES for any write
  const folder = FS.cwd();
  globalThis.lockdown({ errorTaming: "unsafe", stackFiltering: "verbose", reporting: "none" });
  const memory = () => new Uint8Array(wasm.HEAP8.buffer);
  const image = memory().slice();
  const stack = wasm.stackSave();
  return () => {
    memory().set(image);
    wasm.stackRestore(stack);
    FS.chdir(folder);
  };
}

async function readLines() {
  const { createInterface } = await import("node:readline"); // the main thread's only
  return createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
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
