/**
 * The training widget: micrograd's MLP learns the two moons, trained by gradient descent with
 * the learner's own closures, in a Python worker of its own (training/session.py), a few steps
 * at a time so that Pause and Stop answer at once and the page never waits. Live plots of the
 * loss, the accuracy and the decision boundary; "break it" switches show why the course's rules
 * matter.
 *
 * Testing contract: the root has `data-training-widget`; a button named "Train" starts it; an
 * element with `data-step` and `data-accuracy` (0 to 1) follows it as it trains.
 */
import { h, uid } from "../page/dom.js";
import { python } from "../page/python.js";
import { store } from "../page/storage.js";
import { codeKey } from "../exercise/model.js";
import { statusLine } from "../exercise/status.js";
import { boundary, curves } from "./plots.js";

const CHUNK = { count: 40, budget: 120 }; // steps per request, and the milliseconds it may take
const BOUNDARY_MS = 400; // how often the boundary is redrawn while training
const ANNOUNCE_EVERY = 25; // steps between spoken updates
const BREAK_RATE = 40; // "a learning rate far too high": this many times the one set

/** Hydrates one `<div data-training-widget>`. */
export function mountTraining(root) {
  const data = JSON.parse(root.querySelector("template[data-training-data]").content.textContent);
  const defaults = data.config;
  let session = null; // the runner's session, once started
  let running = false;
  let step = 0;
  let lastBoundary = 0;
  let announced = 0;

  const id = uid("mg-train");
  const field = (label, control) => h("label", { class: "mg-train__field" }, h("span", {}, label), control);
  const hidden = h(
    "select",
    {},
    [
      ["16,16", "2 layers of 16"],
      ["8,8", "2 layers of 8"],
      ["16", "1 layer of 16"],
      ["32,32", "2 layers of 32 (slow)"],
    ].map(([value, text]) => h("option", { value, selected: value === defaults.hidden.join(",") }, text)),
  );
  const rate = h("input", {
    type: "number",
    min: "0.01",
    max: "5",
    step: "0.05",
    value: String(defaults.learning_rate),
  });
  const batch = h(
    "select",
    {},
    [8, 16, 32, defaults.points].map((n) =>
      h("option", { value: String(n), selected: n === defaults.batch }, n === defaults.points ? `all ${n}` : String(n)),
    ),
  );
  const seed = h("input", { type: "number", min: "1", max: "9999", step: "1", value: String(defaults.seed) });
  const breaks = {
    assign_add: h("input", { type: "checkbox" }),
    no_zero_grad: h("input", { type: "checkbox" }),
    rate_too_high: h("input", { type: "checkbox" }),
  };
  const check = (input, ...text) => h("label", { class: "mg-train__check" }, input, " ", ...text);

  const train = h("button", { type: "button", class: "mg-button mg-button--primary" }, "Train");
  const pause = h("button", { type: "button", class: "mg-button", disabled: true }, "Pause");
  const once = h("button", { type: "button", class: "mg-button" }, "Step");
  const reset = h("button", { type: "button", class: "mg-button" }, "Reset");
  const stats = h("p", { class: "mg-train__stats", "data-step": "0", "data-accuracy": "0" });
  const spoken = h("p", { class: "mg-visually-hidden", "aria-live": "polite" });
  const message = h("p", { class: "mg-notice mg-notice--warning", role: "alert", hidden: true });
  const source = h("div", { class: "mg-train__source" });
  const lossPlot = curves();
  const boundaryPlot = boundary();

  root.querySelector("template[data-training-data]").remove();
  root.classList.add("mg-widget", "mg-train");
  root.append(
    h(
      "div",
      { class: "mg-frame" },
      h(
        "div",
        { class: "mg-train__body" },
        source,
        h("div", { class: "mg-actions" }, train, pause, once, reset),
        stats,
        spoken,
        message,
        h(
          "div",
          { class: "mg-train__plots" },
          h("figure", {}, boundaryPlot.el, h("figcaption", {}, "The data, and the class the model gives each region")),
          h("figure", {}, lossPlot.el, h("figcaption", {}, "Loss (solid) and accuracy (dashed) per step")),
        ),
      ),
      h(
        "details",
        { class: "mg-details mg-train__settings", id },
        h("summary", {}, "Settings and “break it”"),
        h(
          "fieldset",
          {},
          h("legend", {}, "The model and its training (a change starts again)"),
          field("Hidden layers", hidden),
          field("Learning rate", rate),
          field("Points per step", batch),
          field("Seed", seed),
        ),
        h(
          "fieldset",
          {},
          h("legend", {}, "Break it, and watch what happens"),
          check(
            breaks.assign_add,
            "Use ",
            h("code", {}, "="),
            " instead of ",
            h("code", {}, "+="),
            " in your ",
            h("code", {}, "__add__"),
          ),
          check(breaks.no_zero_grad, "Skip ", h("code", {}, "zero_grad()"), " between steps"),
          check(breaks.rate_too_high, `A learning rate ${BREAK_RATE} times too high`),
        ),
      ),
      statusLine(),
    ),
  );

  /** Each op's code and whether it passed its tab; the choice when one has not. */
  const ops = () =>
    data.ops.map((op) => {
      const text = store.code(codeKey("closures", op.op))?.text ?? op.stub;
      const passed = store.progress(op.exercise, op.version).passedWith === text;
      return { ...op, text, passed };
    });
  let useReference = false;
  const showSource = () => {
    const all = ops();
    const missing = all.filter((op) => !op.passed);
    const names = (list) => list.map((op) => h("code", {}, op.label)).flatMap((el, i) => [i ? ", " : "", el]);
    if (!missing.length) {
      source.replaceChildren(h("p", {}, "Training with your own ", names(all), ": each passed its tab."));
      return;
    }
    const choice = (value, ...text) =>
      h(
        "label",
        { class: "mg-train__check" },
        h("input", {
          type: "radio",
          name: `${id}-source`,
          checked: useReference === value,
          onchange: () => {
            useReference = value;
            restart();
          },
        }),
        " ",
        ...text,
      );
    source.replaceChildren(
      h("p", {}, "Not passed yet: ", names(missing), ". Train with:"),
      h(
        "div",
        { role: "radiogroup", "aria-label": "Which code to train with" },
        choice(false, "my code as it is (and watch what it does)"),
        choice(true, "the course’s reference code for ", names(missing)),
      ),
    );
  };

  const config = () => ({
    hidden: hidden.value.split(",").map(Number),
    learning_rate: Number(rate.value) * (breaks.rate_too_high.checked ? BREAK_RATE : 1),
    batch: Number(batch.value),
    seed: Number(seed.value),
    zero_grad: !breaks.no_zero_grad.checked,
    assign_add: breaks.assign_add.checked,
  });
  const bodies = () =>
    Object.fromEntries(ops().flatMap((op) => (op.passed || !useReference ? [[op.op, op.text]] : [])));

  const setButtons = () => {
    train.disabled = running;
    pause.disabled = !running;
    once.disabled = running;
  };
  const say = (text) => {
    message.hidden = !text;
    message.textContent = text ?? "";
  };
  const show = (accuracy) => {
    stats.dataset.step = String(step);
    stats.dataset.accuracy = String(accuracy);
    const loss = lossPlot.last();
    stats.textContent = `Step ${step} · accuracy ${Math.round(accuracy * 100)}%${loss ? ` · loss ${loss}` : ""}`;
  };

  async function begin() {
    say(null);
    showSource();
    const taken = await python.train({ timeLimit: data.time_limit }).catch((error) => {
      say(`Python is not available: ${error.message}`);
      return null;
    });
    if (!taken) return null;
    session = taken;
    const answer = await session.request("train-start", { bodies: bodies(), config: config() });
    if (!settled(answer)) return null;
    state.points = answer.points;
    state.labels = answer.labels;
    state.extent = answer.extent;
    boundaryPlot.show({ ...state, scores: answer.boundary, accuracy: answer.accuracy });
    show(answer.accuracy);
    return session;
  }
  const state = {};

  /** Handles what ends a session (a stop, a crash, an error in the learner's code); true if none. */
  function settled(answer) {
    if (answer.stopped === "stop") return false;
    let problem = null;
    if (answer.stopped === "time")
      problem = `Training stopped at step ${step}: a few steps took longer than ${data.time_limit} seconds, the time limit. A loop that never ends in a closure does this.`;
    else if (answer.crashed) problem = `Training stopped at step ${step}: Python crashed (${answer.crashed}).`;
    else if (answer.error) problem = `Training stopped at step ${answer.step ?? step}: ${answer.error.summary}.`;
    else if (answer.problem) {
      const { op, step: at } = answer.problem;
      problem = op
        ? `Training stopped at step ${at}: the ${op} closure turned a gradient into something that is not a number (nan or infinity). Open its tab on the exercise page and look at what it adds.`
        : `Training stopped at step ${at}: the loss or the weights stopped being numbers (nan or infinity), though every closure kept its gradients finite. A learning rate far too high does this.`;
    }
    if (!problem) return true;
    say(`${problem} The plots keep what was drawn; Train starts again.`);
    spoken.textContent = problem;
    end();
    return false;
  }

  /** Takes `count` steps in the session (starting it if needed) and shows them. */
  async function advance(count) {
    if (!session && !(await begin())) return false;
    const now = performance.now();
    const drawBoundary = count === 1 || now - lastBoundary > BOUNDARY_MS;
    const answer = await session.request("train-steps", { count, budget: CHUNK.budget, boundary: drawBoundary });
    if (answer.losses) {
      for (const loss of answer.losses) lossPlot.add(++step, loss, answer.accuracy);
      lossPlot.redraw();
    }
    if (answer.boundary) {
      boundaryPlot.show({ ...state, scores: answer.boundary, accuracy: answer.accuracy });
      lastBoundary = now;
    }
    if (!settled(answer)) return false;
    step = answer.step;
    show(answer.accuracy);
    if (step - announced >= ANNOUNCE_EVERY) {
      announced = step;
      spoken.textContent = stats.textContent;
    }
    return true;
  }

  function end() {
    session?.stop();
    session = null;
    running = false;
    setButtons();
  }

  async function loop() {
    running = true;
    setButtons();
    while (running && root.isConnected) {
      if (!(await advance(CHUNK.count))) break;
    }
    running = false;
    setButtons();
  }

  function restart() {
    end();
    step = announced = 0;
    lossPlot.reset();
    boundaryPlot.clear();
    stats.dataset.step = "0";
    stats.dataset.accuracy = "0";
    stats.textContent = "Not trained yet.";
    say(null);
    showSource();
  }

  train.addEventListener("click", () => loop());
  pause.addEventListener("click", () => {
    running = false;
    spoken.textContent = `Paused. ${stats.textContent}`;
  });
  once.addEventListener("click", async () => {
    once.disabled = true;
    await advance(1);
    once.disabled = running;
  });
  reset.addEventListener("click", restart);
  for (const control of [hidden, rate, batch, seed, ...Object.values(breaks)])
    control.addEventListener("change", restart);
  // mkdocs-material switches schemes on the body: the plots take the new colours
  new MutationObserver(() => {
    lossPlot.restyle();
    boundaryPlot.restyle();
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  restart();
}
