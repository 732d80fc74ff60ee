/**
 * A Python worker: Pyodide and the course's grader, in the role the page gives it.
 *
 * - judge: turns what a run did (an observation) into the learner's result; never runs
 *   learner code, so nothing learner code does can reach the verdict.
 * - runner: runs one learner's code (one test run, one training session, or one lesson page's
 *   notebook), then the page throws it away: nothing it did reaches the next run.
 *
 * Loading starts before the page says which (load-python.js); messages go over the page's
 * private channel (channel.js; see ARCHITECTURE.md).
 */
import { connected, lastRequest, on, send } from "./channel.js";
import { cutOff } from "./cut-off.js";
import { bootFailure } from "./hosting.js";
import { FILES, loadPython, startLoading } from "./load-python.js";
import { warmWhileIdle } from "./warm-up.js";

const started = performance.now();
// a judge packs its warm memory once left alone this much longer: on a first visit the runner
// may still be starting, and packing beside it made the first verdict ~70 ms later
const PACK_AFTER_MS = 1000;
// "Check my whole engine" sessions a judge keeps at once: a page runs one, one left behind is dropped
const MOST_SESSIONS = 4;
// the page names a worker for its role, and says whether it hands over the compiled
// WebAssembly (python/python-worker.js): known at once, before its first message can arrive
const role = self.name.startsWith("python-judge-") ? "judge" : "runner";
const handed = self.name.endsWith("+wasm") ? connected.then(({ wasm }) => fromLink(wasm)) : null;
const progress = (loaded, total, sent) => send({ type: "progress", loaded, total, sent });
const loading = startLoading(role, progress, handed);

connected.then(async (request) => {
  let python;
  try {
    python = await loadPython(loading, request);
  } catch (error) {
    send({ type: "failed", message: bootFailure(error, FILES) });
    return;
  }
  // a first runner packs its memory before anything runs in it, and hands it over before it is ready
  const packed = await python.snapshotting;
  if (packed) send({ type: "snapshot", ...packed });
  // ...and the WebAssembly it compiled, for the page's later workers where no judge compiled it
  if (role === "runner" && !handed) await offerCompiled(loading.wasm);
  const { restored, phases } = python;
  send({ type: "ready", ms: Math.round(performance.now() - started), restored, phases });
  if (role === "judge") {
    serveJudge(python);
    offerCompiled(loading.wasm);
  } else serveRunner(python, request.interrupt);
  const warm = () => python.packWarm && setTimeout(() => offerWarm(python.packWarm), PACK_AFTER_MS);
  warmWhileIdle(python.warmUp, { lastRequest, untilFirstRequest: role === "runner", warm });
});
// a worker given a link compiles the WebAssembly for the one at its other end (python-worker.js
// `wasmLink`): a judge for the runner started beside it, a runner loading ahead for the judge after it
connected.then(({ share }) => share && shareCompiled(loading.wasm, share));

function serveJudge({ run: judge, pyodide }) {
  on("judge", ({ id, exercise, bodies, told, observation }) =>
    reply(
      () => {
        const result = judge(exercise, JSON.stringify(bodies), observation, JSON.stringify(told ?? []));
        return { type: "judged", id, result };
      },
      (message) => ({ type: "judged", id, result: null, message }),
    ),
  );
  // "Check my whole engine" (grader/fuzz_page.py): the judge draws, judges and shrinks. It holds
  // each session's search (a PyProxy) by the page's session number, until it is done or ended.
  let fuzzPage = null;
  const fuzz = () => (fuzzPage ??= pyodide.pyimport("grader.fuzz_page"));
  const searches = new Map();
  const forget = (session) => {
    searches.get(session)?.destroy();
    searches.delete(session);
  };
  const answered = (session, search, answer) => {
    if (search.done) forget(session);
    return answer;
  };
  const answerFuzz = (id, call) =>
    reply(
      () => ({ type: "fuzz-judged", id, answer: call() }),
      (message) => ({ type: "fuzz-judged", id, answer: null, message }), // the grader raised, as "judged" says it
    );
  on("fuzz-begin", ({ id, session, design, bodies, count, seed, told }) =>
    answerFuzz(id, () => {
      forget(session);
      const search = fuzz().begin(design, JSON.stringify(bodies), count, seed, JSON.stringify(told ?? []));
      searches.set(session, search);
      while (searches.size > MOST_SESSIONS) forget(searches.keys().next().value);
      return answered(session, search, search.first_json);
    }),
  );
  on("fuzz-next", ({ id, session, ran, unrunnable }) =>
    answerFuzz(id, () => {
      const search = searches.get(session);
      return search ? answered(session, search, search.next_json(ran, unrunnable)) : JSON.stringify({ found: null });
    }),
  );
  on("fuzz-end", ({ session }) => forget(session));
}

function serveRunner(python, interrupt) {
  cutOff(); // before any learner code: what it could reach of JavaScript keeps nothing
  if (interrupt) python.pyodide.setInterruptBuffer(new Uint8Array(interrupt));
  const pyimport = (name) => python.pyodide.pyimport(name);
  // learner code runs from here on: this worker answers once, then the page ends it
  on("run", ({ exercise, bodies }) =>
    reply(() => ({ type: "observed", observation: python.run(exercise, JSON.stringify(bodies)) }), crashed),
  );
  // the nudge tool (runner/nudge.py): measures, then this runner is ended like a run's
  on("nudge", ({ exercise, bodies, values, h }) =>
    reply(() => {
      const nudge = pyimport("runner.nudge").nudge_json;
      return { type: "nudged", answer: nudge(exercise, JSON.stringify(bodies), JSON.stringify(values), h) };
    }, crashed),
  );
  // "Check my whole engine" (runner/fuzz.py): this runner keeps the session until the page ends it
  on("fuzz", ({ design, bodies, ask }) =>
    reply(() => {
      const run = pyimport("runner.fuzz").ask_json;
      return { type: "fuzz-ran", answer: run(design, JSON.stringify(bodies), ask) };
    }, crashed),
  );
  // a training session (training/worker.py) or a microgpt one (microgpt/worker.py, on the names
  // the page fetched): this runner holds the one it started (a PyProxy) until the page ends it
  let training = null;
  const hold = (made) => {
    training?.destroy();
    training = made;
    return made.started_json;
  };
  const trained = (call) => reply(() => ({ type: "trained", answer: call() }), crashed);
  on("train-start", ({ bodies, config }) =>
    trained(() => hold(pyimport("training.worker").start(JSON.stringify(bodies), JSON.stringify(config)))),
  );
  on("train-steps", ({ count, budget, boundary, goOn }) =>
    trained(() => training.steps_json(count, budget, Boolean(boundary), Boolean(goOn))),
  );
  on("gpt-start", ({ bodies, config, names }) =>
    trained(() =>
      hold(pyimport("microgpt.worker").start(JSON.stringify(bodies), JSON.stringify(config), String(names))),
    ),
  );
  on("gpt-steps", ({ count, budget }) => trained(() => training.steps_json(count, budget)));
  on("gpt-sample", ({ count, temperature }) => trained(() => training.sample_json(count, temperature)));
  // a lesson page's notebook (runner/notebook.py): its blocks share one namespace, held here
  // until the page ends this runner (Restart, a time-out, or the page left)
  let notebook = null;
  const cell = (call) => reply(() => ({ type: "cell", answer: call() }), crashed);
  on("cell-start", ({ names }) =>
    cell(() => {
      // microgpt's names, where microgpt/names.py `load` looks for them without the names package
      if (typeof names === "string") python.pyodide.FS.writeFile("names.txt", names);
      notebook?.destroy();
      notebook = pyimport("runner.notebook").start();
      return "{}";
    }),
  );
  on("cell-run", ({ code }) => cell(() => notebook.run_json(String(code))));
  on("cell-graph", ({ expr, direction }) => cell(() => notebook.graph_json(String(expr), String(direction))));
  on("cell-claims", ({ claims }) => cell(() => notebook.claims_json(JSON.stringify(claims))));
}

/** Sends the message `make()` makes or, if it throws, the one `failed` makes of what it threw. */
function reply(make, failed) {
  try {
    send(make());
  } catch (error) {
    send(failed(`${error?.message || error}`));
  }
}

/** A runner's answer when what it was asked to do threw. */
function crashed(message) {
  return { type: "crashed", message };
}

/** A judge's memory once warm, for later visits' judges: never once it has judged anything.
 * Either way it says so once: a snapshot with no memory is one it did not make. */
async function offerWarm(packWarm) {
  const untouched = () => lastRequest() === null; // before packing, and still after
  const packed = untouched() ? await packWarm() : null;
  send({ type: "snapshot", ...(packed && untouched() ? packed : {}) });
}

/** The module the worker at the link's other end posts (python-worker.js `wasmLink`), or what was handed. */
function fromLink(wasm) {
  if (!(wasm instanceof MessagePort)) return wasm;
  return new Promise((resolve) => {
    const take = (module) => {
      wasm.close();
      resolve(module); // null when the other could not: then this worker fetches it itself
    };
    wasm.onmessage = ({ data }) => take(data);
    wasm.onmessageerror = () => take(null); // Firefox cannot take a module over a port
  });
}

/** Posts this worker's compiled module on the link as soon as it is compiled (null if it cannot
 * be), and closes it: it never reads what comes the other way. */
async function shareCompiled(compiled, link) {
  // a failure leaves the other worker to fetch and compile it; this one reports its own
  const module = await compiled.catch(() => null);
  try {
    link.postMessage(module);
  } catch {
    link.postMessage(null); // a browser that cannot post a module
  }
  link.close();
}

/** The judge's compiled WebAssembly, once it is ready, for the page to hand later runners: they
 * neither fetch nor compile it again (a private window's cache does not keep it). A browser that
 * cannot post a module goes without. */
async function offerCompiled(compiled) {
  try {
    send({ type: "compiled", module: await compiled });
  } catch {
    // the runners fetch and compile it themselves
  }
}
