/**
 * The training widget: micrograd's MLP learns the two moons, trained by gradient descent with
 * the learner's own closures, in a Python worker of its own (training/session.py), a few steps
 * at a time by the shell both trainers share (trainer.js, view.js), which keeps what is the
 * moons' own here: its settings, its plots (the loss, the accuracy and the decision boundary)
 * and its words; "break it" switches show why the course's rules matter.
 *
 * Training stops by itself once the loss stops falling or at a step limit (training/session.py
 * decides), or once its loss has blown up or risen (verdict.js decides), says which and how
 * well the network fits or how it failed, and Train goes on from there.
 *
 * Testing contract: the root has `data-training-widget`; a button named "Train" starts it; an
 * element with `data-step` and `data-accuracy` (0 to 1) follows it as it trains; the element
 * with `data-finished` says why training stopped by itself ("converged", "limit" or
 * "failed"), and its `data-verdict` how the run went (verdict.js's kind); the root's
 * `data-state` is the trainer's state (trainer.js).
 */
import { h } from "../shared/dom.js";
import { boundary, curves } from "../plots/plots.js";
import {
  check,
  code,
  field,
  mountTrainer,
  pythonSession,
  select,
  settingsFrame,
  trainerView,
  withBugTab,
} from "./view.js";
import { finishedText, problemOf } from "./words.js";
import { verdict } from "./verdict.js";

const CHUNK = { count: 40, budget: 120 }; // steps per request, and the milliseconds it may take
const BOUNDARY_MS = 400; // how often the boundary is redrawn while training
const ANNOUNCE_EVERY = 25; // steps between spoken updates
const BREAK_RATE = 40; // "a learning rate far too high": this many times the one set
const GUESS = 1; // the margin loss of a network that knows nothing (every score 0)
const GIVE_UP = ["blew-up", "rose"]; // a run the verdict finds so, once past two windows, stops

/** Hydrates one `<div data-training-widget>`. */
export function mountTraining(root) {
  mountTrainer(root, { name: "training", prefix: "mg-train" }, ({ data, id, source }) => {
    const settings = settingsPart(data.config, id, data.find_the_bug ?? {});
    const view = trainingView();
    const parts = moonsParts({ data, settings, source, view });
    const body = [view.stats, view.spoken, view.message, view.finishedNote, view.plots];
    const restyle = () => {
      view.lossPlot.restyle();
      view.boundaryPlot.restyle();
    };
    return { settings, view, parts, body, restyle };
  });
}

const SVG = "http://www.w3.org/2000/svg";

/** A mark as the boundary plot draws it (plots/plots.js): a cross for +1, a circle for −1. */
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

/** The shared view (view.js), with the boundary and the curves, and why training finished. */
function trainingView() {
  const view = trainerView({ figures: { "data-accuracy": "0" }, every: ANNOUNCE_EVERY });
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
    ...view,
    ...{ lossPlot, boundaryPlot, plots },
    /** Says why training stopped by itself (finishedText's `end`), or nothing. */
    finish: (end) => view.finish(end && [finishedText(end)], { finished: end?.finished, kind: end?.verdict.kind }),
    stopped(problem, answer) {
      view.halted(answer.step ?? answer.problem?.step);
      view.say([...problem, " The plots keep what was drawn; Train starts again."]);
      view.speak(view.message.textContent);
    },
    show(step, accuracy) {
      const loss = lossPlot.last();
      const text = `Step ${step} · accuracy ${Math.round(accuracy * 100)}%${loss ? ` · loss ${loss}` : ""}`;
      view.show(step, text, { "data-accuracy": String(accuracy) });
    },
    /** Draws the boundary an answer brings; the first answer brings the data too. */
    draw(answer, first = false) {
      if (first) Object.assign(dataset, { points: answer.points, labels: answer.labels, extent: answer.extent });
      boundaryPlot.show({ ...dataset, scores: answer.boundary, accuracy: answer.accuracy });
    },
    /** Clears the plots, drawing the moons of `seed` when the page has them (the default's). */
    clear(moons, seed) {
      view.clear();
      lossPlot.reset();
      boundaryPlot.clear();
      if (moons?.seed === seed) boundaryPlot.show(moons);
    },
  };
}

/** How the run so far went (verdict.js), with the accuracy on the points (`labels`) and a coin
 * toss's (the larger class's share): finishedText's figures. */
function judged(view, window, accuracy, labels) {
  const plus = labels.filter((label) => label > 0).length;
  const chance = Math.max(plus, labels.length - plus) / labels.length;
  const losses = view.lossPlot.data[1];
  const found = verdict({ losses, window, guess: GUESS, accuracy, chance });
  return { verdict: found, accuracy, chance, points: labels.length };
}

/** Whom problemOf can blame: the trained ops, those training with starter code, a switch in `__add__`. */
const whom = (data, source, settings) => ({
  trainedOps: data.trained_ops,
  starters: source.starters(),
  assignAdd: settings.config().assign_add,
});

/** The moons' part of the trainer (trainer.js): the network on the moons, and its boundary. */
function moonsParts({ data, settings, source, view }) {
  let lastBoundary = 0; // when the boundary was last drawn
  let asked = 0; // when the steps under way were asked for
  let goOn = false; // training stopped by itself: the next request trains on from there
  let labels = []; // the points' labels, once started
  return {
    chunk: CHUNK.count,
    async open() {
      const session = await pythonSession(data, source, view);
      if (!session) return null;
      const answer = await session.request("train-start", { bodies: source.bodies(), config: settings.config() });
      return { session, answer };
    },
    started(answer, step) {
      labels = answer.labels;
      view.draw(answer, true);
      view.show(step, answer.accuracy);
    },
    ask(count) {
      asked = performance.now();
      const drawBoundary = count === 1 || asked - lastBoundary > BOUNDARY_MS;
      const request = { count, budget: CHUNK.budget, boundary: drawBoundary, goOn };
      goOn = false;
      view.finish(null);
      return ["train-steps", request];
    },
    came(answer, from) {
      (answer.losses ?? []).forEach((loss, i) => view.lossPlot.add(from + i + 1, loss, answer.accuracy));
      if (answer.losses) view.lossPlot.redraw();
      if (!answer.boundary) return;
      view.draw(answer);
      lastBoundary = asked;
    },
    shown(answer) {
      view.show(answer.step, answer.accuracy);
      const { window } = data.config;
      const run = judged(view, window, answer.accuracy, labels);
      const failing = answer.step >= 2 * window && GIVE_UP.includes(run.verdict.kind);
      const finished = answer.finished ?? (failing ? "failed" : null);
      if (!finished) return false;
      goOn = true;
      const context = { broken: settings.broken(), rateTimes: BREAK_RATE };
      view.finish({ finished, step: answer.step, config: data.config, context, ...run });
      return true;
    },
    problem: (answer, step) => problemOf(answer, step, data.time_limit, whom(data, source, settings)),
    stopped: (problem, answer) => view.stopped(problem, answer),
    paused: () => view.paused(),
    cleared() {
      goOn = false;
      view.clear(data.moons, settings.config().seed);
      source.refresh();
    },
  };
}

/** The model's settings and the "break it" switches, each beside its find-the-bug tab (`bugTabs`, by
 * switch): `{el, controls, config(), broken()}`. */
function settingsPart(defaults, id, bugTabs) {
  const layers = [
    ["16,16", "2 layers of 16"],
    ["8,8", "2 layers of 8"],
    ["16", "1 layer of 16"],
    ["32,32", "2 layers of 32 (slow)"],
  ];
  const hidden = select(layers, defaults.hidden.join(","));
  const rate = h("input", {
    type: "number",
    min: "0.01",
    max: "5",
    step: "0.05",
    value: String(defaults.learning_rate),
  });
  const sizes = [8, 16, 32, defaults.point_count].map((n) => [n, n === defaults.point_count ? `all ${n}` : String(n)]);
  const batch = select(sizes, defaults.batch);
  const seed = h("input", { type: "number", min: "1", max: "9999", step: "1", value: String(defaults.seed) });
  const breaks = {
    assign_add: h("input", { type: "checkbox" }),
    no_zero_grad: h("input", { type: "checkbox" }),
    rate_too_high: h("input", { type: "checkbox" }),
  };
  const el = settingsFrame(
    id,
    [
      field("Hidden layers", hidden),
      field("Learning rate", rate),
      field("Points per step", batch),
      field("Seed", seed),
    ],
    [
      withBugTab(
        check(breaks.assign_add, "Use ", code("="), " instead of ", code("+="), " in your ", code("__add__")),
        bugTabs.assign_add,
      ),
      withBugTab(check(breaks.no_zero_grad, "Skip ", code("zero_grad()"), " between steps"), bugTabs.no_zero_grad),
      check(breaks.rate_too_high, `A learning rate ${BREAK_RATE} times too high`),
    ],
  );
  const config = () => ({
    hidden: hidden.value.split(",").map(Number),
    learning_rate: Number(rate.value) * (breaks.rate_too_high.checked ? BREAK_RATE : 1),
    batch: Number(batch.value),
    seed: Number(seed.value),
    zero_grad: !breaks.no_zero_grad.checked,
    assign_add: breaks.assign_add.checked,
  });
  /** The switches turned on, by name. */
  const broken = () => Object.keys(breaks).filter((key) => breaks[key].checked);
  return { el, controls: [hidden, rate, batch, seed, ...Object.values(breaks)], config, broken };
}
