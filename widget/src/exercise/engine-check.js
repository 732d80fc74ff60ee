/**
 * "Check my whole engine": the learner's whole Value class (every op tab's current code) on 500
 * seeded random graphs, in a runner of the session's own; the judge draws, judges and shrinks
 * (grader/fuzz_page.py, python/scheduler-fuzz.js). Shows progress as it goes (a live region),
 * Stop ends it at once, and the result is "no failing graph" or the smallest failing graph: as
 * Python, the leaf and both grads, and the judged check with its graph and step-through
 * (results.js, graph-view.js, drawn by fuzz-drawing.js). It never records anything: no tab's ✓
 * or stored progress changes.
 *
 * Testing contract: the section has `data-engine-check` ("idle", "running", "pass", "fail",
 * "error", "stopped"); its progress line is `[data-engine-progress]`.
 *
 * Names: the button's "engine" is the learner's whole class. In the code the check is the fuzz
 * check (`fuzzCheck`, python.js `fuzz`, scheduler-fuzz.js) and "engine" is the find-the-bug
 * kind (kinds.js); this file's name and its hooks (the data-* attributes above, `.mg-engine__*`,
 * the ```` ```engine-check ```` block) keep the button's word.
 */
import { h } from "../shared/dom.js";
import { python } from "../python/python.js";
import { store } from "../shared/storage.js";
import { drawCheck } from "./fuzz-drawing.js";
import { toldOps } from "./ladder.js";
import { codeKey, DATA_SELECTOR, readModel } from "./model.js";
import { createResult, withCode } from "./results.js";

export const GRAPHS = 500;
export const SEED = 0;

/** Every op's current code in a design (`model`: model.js's): the saved code, else the starter code. */
export function savedBodies(model, design) {
  const { stubs } = model.designs[design];
  return Object.fromEntries(Object.keys(stubs).map((op) => [op, store.code(codeKey(design, op))?.text ?? stubs[op]]));
}

/** The ops of `design` whose rule the words may say: each whose tab reached its formula rung (ladder.js). */
export function toldInDesign(model, design) {
  const every = { kind: "graph", design, ops: Object.keys(model.designs[design].stubs) };
  return toldOps(every, model.exercises, (tab) => store.progress(tab.id, tab.version));
}

/**
 * Hydrates a `<div data-engine-check-widget>` (a ```` ```engine-check ```` block, course/
 * widget_data.py): the check alone, on the code the learner saved on the design's op tabs.
 */
export function mountFuzzCheck(root) {
  const model = readModel(root);
  const [design] = Object.keys(model.designs);
  const { el } = fuzzCheck({
    design,
    bodies: () => savedBodies(model, design),
    told: () => toldInDesign(model, design),
    timeLimit: model.timeLimit,
  });
  root.querySelector(DATA_SELECTOR)?.remove();
  root.classList.add("mg-widget");
  root.append(h("div", { class: "mg-frame" }, h("div", { class: "mg-panel" }, el)));
}

/**
 * `{el}`: the check for `design`. `bodies()` gives every op's current code ({op: code});
 * `told()` the ops whose rule its words may say (ladder.js); `goTo(op)` opens an op's tab or is
 * null; `timeLimit` is each run's, in seconds.
 */
export function fuzzCheck({ design, bodies, told, goTo = null, timeLimit = 5 }) {
  const progressLine = h("p", { class: "mg-engine__progress", role: "status", "data-engine-progress": "" });
  const meter = h("progress", { class: "mg-engine__meter", max: String(GRAPHS), value: "0", hidden: true });
  const { start, stop } = buttons(
    () => check(),
    () => current?.stop(),
  );
  const findings = h("div", { class: "mg-engine__found" });
  const result = judgedResult(goTo);
  const el = checkSection({ start, stop, meter, progressLine, findings, result });
  let current = null;

  const say = (state, text) => {
    el.dataset.engineCheck = state;
    progressLine.textContent = text;
  };

  async function check() {
    current?.stop();
    findings.replaceChildren();
    result.el.hidden = true;
    meter.hidden = false;
    meter.value = 0;
    const handle = python.fuzz(design, bodies(), {
      count: GRAPHS,
      seed: SEED,
      told: told(),
      timeLimit,
      owner: el,
      onProgress: (progress) => current === handle && moved(progress),
    });
    current = handle;
    say("running", python.canGrade ? "Starting…" : "Waiting for Python…"); // asking started a judge if none
    start.disabled = true;
    stop.hidden = false;
    stop.focus();
    let outcome;
    try {
      outcome = await handle.done;
    } catch (error) {
      outcome = { crashed: error.message };
    }
    if (current !== handle) return;
    current = null;
    start.disabled = false;
    stop.hidden = true;
    meter.hidden = true;
    if (document.activeElement === stop || document.activeElement === document.body) start.focus();
    show(outcome);
  }

  function moved(progress) {
    if (progress.graph) meter.value = progress.last;
    say("running", progressText(progress));
  }

  const show = (outcome) => shown(outcome, { say, findings, result });

  return { el };
}

/** The result area for the smallest failing graph's judged check, hidden until there is one. */
function judgedResult(goTo) {
  const result = createResult({ goTo, graphs: drawCheck });
  result.el.hidden = true;
  result.el.setAttribute("aria-label", "The smallest failing graph, judged");
  return result;
}

/** The check's section: what it does, its buttons, its progress and what it found. */
function checkSection({ start, stop, meter, progressLine, findings, result }) {
  return h(
    "section",
    { class: "mg-engine", "aria-label": "Check my whole engine", "data-engine-check": "idle" },
    h("h3", { class: "mg-subtitle" }, "Check my whole engine"),
    h(
      "p",
      { class: "mg-engine__about" },
      `Runs every op you wrote, all together and mixed with + and *, on ${GRAPHS} random graphs, and shows the smallest graph your engine gets wrong. It changes no tab's ✓.`,
    ),
    h("div", { class: "mg-actions" }, start, stop),
    meter,
    progressLine,
    findings,
    result.el,
  );
}

/** The progress line's words: the graph the session ran, or the shrinking and judging of a failing one. */
function progressText(progress) {
  if (progress.graph) return `Graph ${progress.last} of ${progress.of}…`;
  return progress.shrunk ? "Judging the smallest failing graph…" : "A graph failed: shrinking it to a smallest one…";
}

/** What a session found, shown: a stop or a crash on the progress line, else the summary and,
 * for a failing graph, its Python, the leaf and both grads, and the judged check. */
function shown(outcome, { say, findings, result }) {
  if (outcome.stopped) return say("stopped", outcome.stopped.reason === "left" ? "" : "Stopped.");
  if (outcome.crashed !== undefined)
    return say("error", `The check could not finish: Python stopped (${outcome.crashed}).`);
  const { found } = outcome;
  if (!found) return say("error", "The check could not finish.");
  say(found.verdict, "");
  findings.replaceChildren(h("p", { class: "mg-engine__summary" }, withCode(found.summary)));
  if (found.verdict !== "fail") return;
  findings.append(
    h(
      "pre",
      { class: "mg-engine__program", tabindex: "0", "aria-label": "The graph as Python" },
      h("code", {}, found.program),
    ),
    h("p", { class: "mg-engine__did" }, withCode(found.did)),
  );
  if (!found.result) return;
  result.el.hidden = false;
  result.show(found.result);
}

function buttons(check, stopIt) {
  const start = h(
    "button",
    { type: "button", class: "mg-button", onclick: check },
    h("span", { class: "mg-button__icon", "aria-hidden": "true" }, "⟳"),
    "Check my whole engine",
  );
  const stop = h(
    "button",
    { type: "button", class: "mg-button", hidden: true, onclick: stopIt },
    h("span", { class: "mg-button__icon", "aria-hidden": "true" }, "■"),
    "Stop",
  );
  return { start, stop };
}
