/**
 * The training widget: micrograd's MLP learns the two moons, trained by gradient descent with
 * the learner's own closures, in a Python worker of its own (training/session.py), a few steps
 * at a time so that Pause and Stop answer at once and the page never waits. Live plots of the
 * loss, the accuracy and the decision boundary; "break it" switches show why the course's rules
 * matter.
 *
 * Training stops by itself once the loss stops falling or at a step limit (training/session.py
 * decides), says so, and Train goes on from there.
 *
 * Testing contract: the root has `data-training-widget`; a button named "Train" starts it; an
 * element with `data-step` and `data-accuracy` (0 to 1) follows it as it trains; the element
 * with `data-finished` says why training stopped by itself.
 */
import { h, uid } from "../page/dom.js";
import { python } from "../page/python.js";
import { statusLine } from "../exercise/status.js";
import { boundary, curves } from "./plots.js";
import { said, sourcePart } from "./source.js";
import { finishedText, problemOf } from "./words.js";

const CHUNK = { count: 40, budget: 120 }; // steps per request, and the milliseconds it may take
const BOUNDARY_MS = 400; // how often the boundary is redrawn while training
const ANNOUNCE_EVERY = 25; // steps between spoken updates
const BREAK_RATE = 40; // "a learning rate far too high": this many times the one set

/** Hydrates one `<div data-training-widget>`. */
export function mountTraining(root) {
  const carrier = root.querySelector("template[data-training-data]");
  const data = JSON.parse(carrier.content.textContent);
  carrier.remove();
  const id = uid("mg-train");
  const settings = settingsPart(data.config, id);
  const source = sourcePart(data.ops, id, () => trainer.restart());
  const view = trainingView();
  const trainer = createTrainer({ data, settings, source, view, root });
  root.classList.add("mg-widget", "mg-train");
  root.append(
    h(
      "div",
      { class: "mg-frame" },
      h(
        "div",
        { class: "mg-train__body" },
        source.el,
        h("div", { class: "mg-actions" }, ...Object.values(view.buttons)),
        ...[view.stats, view.spoken, view.message, view.finished, view.plots],
      ),
      settings.el,
      statusLine(),
    ),
  );
  view.buttons.train.addEventListener("click", () => trainer.loop());
  view.buttons.pause.addEventListener("click", () => trainer.pause());
  view.buttons.step.addEventListener("click", () => trainer.once());
  view.buttons.reset.addEventListener("click", () => trainer.restart());
  for (const control of settings.controls) control.addEventListener("change", () => trainer.restart());
  // mkdocs-material switches schemes on the body: the plots take the new colours
  new MutationObserver(() => {
    view.lossPlot.restyle();
    view.boundaryPlot.restyle();
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  trainer.restart();
}

const SVG = "http://www.w3.org/2000/svg";

/** A mark as the boundary plot draws it (plots.js): a cross for +1, a circle for −1. */
function mark(label) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 12 12");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("mg-train__mark", label > 0 ? "mg-train__mark--plus" : "mg-train__mark--minus");
  const shape = document.createElementNS(SVG, label > 0 ? "path" : "circle");
  if (label > 0) shape.setAttribute("d", "M2 2 L10 10 M10 2 L2 10");
  else
    for (const [name, value] of [
      ["cx", 6],
      ["cy", 6],
      ["r", 4],
    ])
      shape.setAttribute(name, value);
  svg.append(shape);
  return svg;
}

/** The boundary plot's legend: which mark is +1 and which −1, and what the shading is. */
function boundaryLegend() {
  return h(
    "span",
    { class: "mg-train__legend" },
    h("span", {}, mark(1), " labelled +1"),
    h("span", {}, mark(-1), " labelled −1"),
    h("span", {}, "each region shaded in the colour of the class the model gives it"),
  );
}

/** The buttons, the figures and the plots, and how the trainer updates them. */
function trainingView() {
  const button = (text, primary) =>
    h("button", { type: "button", class: primary ? "mg-button mg-button--primary" : "mg-button" }, text);
  const buttons = {
    train: button("Train", true),
    pause: button("Pause"),
    step: button("Step"),
    reset: button("Reset"),
  };
  const stats = h("p", { class: "mg-train__stats", "data-step": "0", "data-accuracy": "0" });
  const spoken = h("p", { class: "mg-visually-hidden", "aria-live": "polite" });
  const message = h("p", { class: "mg-notice mg-notice--warning", role: "alert", hidden: true });
  const finished = h("p", { class: "mg-notice", role: "status", "data-finished": "", hidden: true });
  let announced = 0; // the step last said aloud
  const lossPlot = curves();
  const boundaryPlot = boundary();
  const dataset = {}; // the points, their labels and the plot's extent, once started
  const figure = (plot, ...caption) => h("figure", {}, plot.el, h("figcaption", {}, ...caption));
  const plots = h(
    "div",
    { class: "mg-train__plots" },
    figure(boundaryPlot, "The data, and the class the model gives each region", boundaryLegend()),
    figure(lossPlot, "Loss (solid) and accuracy (dashed) per step"),
  );
  return {
    ...{ buttons, stats, spoken, message, finished, lossPlot, boundaryPlot, plots },
    setRunning(running) {
      buttons.train.disabled = running;
      buttons.pause.disabled = !running;
      buttons.step.disabled = running;
    },
    /** Says what went wrong: a string, or where.js's parts (with links); none hides it. */
    say(words) {
      const parts = typeof words === "string" ? [words] : (words ?? []);
      message.hidden = !parts.length;
      message.replaceChildren(h("span", {}, ...said(parts))); // one flex item: the words flow as text
    },
    /** Says why training stopped by itself (`{why, step, config}`), or nothing. */
    finish(end) {
      finished.hidden = !end;
      finished.dataset.finished = end?.why ?? "";
      finished.textContent = end ? finishedText(end) : "";
      if (end) spoken.textContent = finished.textContent;
    },
    paused() {
      stats.textContent = `Paused at ${stats.textContent.replace(/^Step/, "step")}`;
      spoken.textContent = stats.textContent;
    },
    stopped(problem) {
      this.say([...problem, " The plots keep what was drawn; Train starts again."]);
      spoken.textContent = message.textContent;
    },
    show(step, accuracy) {
      stats.dataset.step = String(step);
      stats.dataset.accuracy = String(accuracy);
      const loss = lossPlot.last();
      stats.textContent = `Step ${step} · accuracy ${Math.round(accuracy * 100)}%${loss ? ` · loss ${loss}` : ""}`;
      if (step - announced >= ANNOUNCE_EVERY) {
        announced = step;
        spoken.textContent = stats.textContent;
      }
    },
    /** Draws the boundary an answer brings; the first answer brings the data too. */
    draw(answer, first = false) {
      if (first) Object.assign(dataset, { points: answer.points, labels: answer.labels, extent: answer.extent });
      boundaryPlot.show({ ...dataset, scores: answer.boundary, accuracy: answer.accuracy });
    },
    /** Clears the plots, drawing the moons of `seed` when the page has them (the default's). */
    clear(moons, seed) {
      this.say(null);
      this.finish(null);
      lossPlot.reset();
      boundaryPlot.clear();
      if (moons?.seed === seed) boundaryPlot.show(moons);
      stats.dataset.step = "0";
      stats.dataset.accuracy = "0";
      stats.textContent = "Not trained yet.";
      announced = 0;
    },
  };
}

/** A session of the page's Python for training, or null when Python is not available (said). */
async function open(data, source, view) {
  view.say(null);
  source.refresh();
  return python.train({ timeLimit: data.time_limit }).catch((error) => {
    view.say(`Python is not available: ${error.message}`);
    return null;
  });
}

/** Whom problemOf can blame: the ops, those training with starter code, a switch in `__add__`. */
const whom = (data, source, settings) => ({
  ops: data.ops,
  starters: source.starters(),
  assignAdd: settings.config().assign_add,
});

/**
 * Trains in a session of the page's Python, a chunk of steps at a time, and shows each chunk:
 * `{loop(), pause(), once(), restart()}`.
 */
function createTrainer({ data, settings, source, view, root }) {
  let session = null; // the runner's session, once started
  let running = false;
  let paused = false;
  let step = 0;
  let lastBoundary = 0;
  let goOn = false; // training stopped by itself: the next request trains on from there

  async function begin() {
    session = await open(data, source, view);
    if (!session) return false;
    const answer = await session.request("train-start", { bodies: source.bodies(), config: settings.config() });
    if (!settled(answer)) return false;
    view.draw(answer, true);
    view.show(step, answer.accuracy);
    return true;
  }

  /** Ends the session on a stop, a crash or an error in the learner's code; true if none. */
  function settled(answer) {
    if (answer.stopped === "stop") return false;
    const problem = problemOf(answer, step, data.time_limit, whom(data, source, settings));
    if (!problem) return true;
    view.stopped(problem);
    end();
    return false;
  }

  /** Takes `count` steps in the session (starting it if needed) and shows them. */
  async function advance(count) {
    if (!session && !(await begin())) return false;
    const now = performance.now();
    const drawBoundary = count === 1 || now - lastBoundary > BOUNDARY_MS;
    const request = { count, budget: CHUNK.budget, boundary: drawBoundary, goOn };
    goOn = false;
    view.finish(null);
    const answer = await session.request("train-steps", request);
    for (const loss of answer.losses ?? []) view.lossPlot.add(++step, loss, answer.accuracy);
    if (answer.losses) view.lossPlot.redraw();
    if (answer.boundary) {
      view.draw(answer);
      lastBoundary = now;
    }
    if (!settled(answer)) return false;
    step = answer.step;
    view.show(step, answer.accuracy);
    if (answer.finished) {
      goOn = true;
      view.finish({ why: answer.finished, step, config: data.config });
      return false;
    }
    return true;
  }

  function end() {
    session?.stop();
    session = null;
    running = false;
    view.setRunning(false);
  }

  return {
    async loop() {
      view.setRunning((running = true));
      paused = false;
      while (running && root.isConnected && (await advance(CHUNK.count)));
      view.setRunning((running = false));
      if (paused) view.paused();
    },
    pause() {
      running = false;
      paused = true; // said once the chunk under way has been shown
    },
    async once() {
      view.buttons.step.disabled = true;
      await advance(1);
      view.buttons.step.disabled = running;
    },
    restart() {
      end();
      step = 0;
      goOn = false;
      view.clear(data.moons, settings.config().seed);
      source.refresh();
    },
  };
}

/** The model's settings and the "break it" switches: `{el, controls, config()}`. */
function settingsPart(defaults, id) {
  const field = (label, control) => h("label", { class: "mg-train__field" }, h("span", {}, label), control);
  const option = (value, text, selected) => h("option", { value: String(value), selected }, text);
  const layers = [
    ["16,16", "2 layers of 16"],
    ["8,8", "2 layers of 8"],
    ["16", "1 layer of 16"],
    ["32,32", "2 layers of 32 (slow)"],
  ];
  const hidden = h(
    "select",
    {},
    layers.map(([v, text]) => option(v, text, v === defaults.hidden.join(","))),
  );
  const rate = h("input", {
    type: "number",
    min: "0.01",
    max: "5",
    step: "0.05",
    value: String(defaults.learning_rate),
  });
  const sizes = [8, 16, 32, defaults.points];
  const batch = h(
    "select",
    {},
    sizes.map((n) => option(n, n === defaults.points ? `all ${n}` : String(n), n === defaults.batch)),
  );
  const seed = h("input", { type: "number", min: "1", max: "9999", step: "1", value: String(defaults.seed) });
  const breaks = {
    assign_add: h("input", { type: "checkbox" }),
    no_zero_grad: h("input", { type: "checkbox" }),
    rate_too_high: h("input", { type: "checkbox" }),
  };
  const check = (input, ...text) => h("label", { class: "mg-train__check" }, input, " ", ...text);
  const code = (text) => h("code", {}, text);
  const el = h(
    "details",
    { class: "mg-details mg-train__settings", id },
    h("summary", {}, "Settings and “break it”"),
    h(
      "fieldset",
      {},
      h("legend", {}, "The model and its training (a change starts again)"),
      ...[field("Hidden layers", hidden), field("Learning rate", rate)],
      ...[field("Points per step", batch), field("Seed", seed)],
    ),
    h(
      "fieldset",
      {},
      h("legend", {}, "Break it, and watch what happens"),
      check(breaks.assign_add, "Use ", code("="), " instead of ", code("+="), " in your ", code("__add__")),
      check(breaks.no_zero_grad, "Skip ", code("zero_grad()"), " between steps"),
      check(breaks.rate_too_high, `A learning rate ${BREAK_RATE} times too high`),
    ),
  );
  const config = () => ({
    hidden: hidden.value.split(",").map(Number),
    learning_rate: Number(rate.value) * (breaks.rate_too_high.checked ? BREAK_RATE : 1),
    batch: Number(batch.value),
    seed: Number(seed.value),
    zero_grad: !breaks.no_zero_grad.checked,
    assign_add: breaks.assign_add.checked,
  });
  return { el, controls: [hidden, rate, batch, seed, ...Object.values(breaks)], config };
}
