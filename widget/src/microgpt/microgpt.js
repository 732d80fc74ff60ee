/**
 * The microgpt widget: Karpathy's microgpt learns to make up names, trained by Adam through the
 * Value class of the local-gradients tabs (the learner's own tuples), in a runner of its own
 * (microgpt/worker.py), a few steps at a time: Pause answers at once and the page never waits.
 * Live: the loss (each name's, smoothed, and a uniform guess's), steps per second, and names
 * sampled every few seconds; "break it" switches show what a wrong piece does, and say which.
 *
 * Testing contract: the root has `data-microgpt-widget`; a button named "Train" starts it; an
 * element with `data-step` and `data-loss` (the smoothed loss) follows it; each sampled name is
 * in an element with `data-sample`.
 */
import { h, uid } from "../page/dom.js";
import { python } from "../page/python.js";
import { statusLine } from "../exercise/status.js";
import { lossCurves } from "../training/plots.js";
import { said, sourcePart } from "../training/source.js";
import { culpritText, problemText } from "./words.js";
import { text } from "../training/where.js";

const CHUNK = { count: 20, budget: 250 }; // steps per request, and the milliseconds it may take
const SAMPLE_EVERY_MS = 5000; // fresh names while training: a set costs a few steps
const SAMPLES = 8;
const ANNOUNCE_EVERY = 50; // steps between spoken updates
const BREAK_RATE = 10; // "learning rate × 10"
const WORSE_THAN_GUESSING = 0.5; // a smoothed loss this far above a uniform guess is said
const NAMES_URL = new URL(`../${PYTHON_ASSETS.names}`, import.meta.url);

/** Hydrates one `<div data-microgpt-widget>`. */
export function mountMicrogpt(root) {
  const carrier = root.querySelector("template[data-microgpt-data]");
  const data = JSON.parse(carrier.content.textContent);
  carrier.remove();
  const id = uid("mg-gpt");
  const settings = settingsPart(data.config, id);
  const source = sourcePart(data.ops, id, () => trainer.restart());
  const view = gptView(Math.log(data.vocab_size));
  const trainer = createTrainer({ data, settings, source, view, root });
  root.classList.add("mg-widget", "mg-train", "mg-gpt");
  root.append(
    h(
      "div",
      { class: "mg-frame" },
      h(
        "div",
        { class: "mg-train__body" },
        source.el,
        h("div", { class: "mg-actions" }, ...Object.values(view.buttons)),
        ...[view.stats, view.spoken, view.warning, view.message],
        h("div", { class: "mg-train__plots" }, view.samplesFigure, view.lossFigure),
      ),
      settings.el,
      statusLine(),
    ),
  );
  view.buttons.train.addEventListener("click", () => trainer.loop());
  view.buttons.pause.addEventListener("click", () => trainer.pause());
  view.buttons.step.addEventListener("click", () => trainer.once());
  view.buttons.reset.addEventListener("click", () => trainer.restart());
  view.buttons.more.addEventListener("click", () => trainer.sample());
  for (const control of settings.controls) control.addEventListener("change", () => trainer.restart());
  new MutationObserver(() => view.lossPlot.restyle()).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-md-color-scheme"],
  });
  trainer.restart();
}

/** The names the model makes up, and the temperature to sample at: `{figure, show(names),
 * clear(), temperature()}`. */
function namesPart() {
  const list = h("ol", { class: "mg-gpt__names", "aria-live": "polite", "aria-atomic": "true" });
  const temperature = h("input", { type: "range", min: "0.1", max: "1.5", step: "0.1", value: "0.5" });
  const shown = h("output", {}, temperature.value);
  temperature.addEventListener("input", () => (shown.value = temperature.value));
  const caption = h("p", { class: "mg-gpt__caption", id: uid("mg-gpt-names") }, "Names the model makes up");
  const figure = h(
    "div",
    { class: "mg-gpt__samples", role: "group", "aria-labelledby": caption.id },
    caption,
    list,
    h("label", { class: "mg-train__field mg-gpt__temperature" }, h("span", {}, "Temperature ", shown), temperature),
  );
  return {
    figure,
    show: (names) => list.replaceChildren(...names.map((name) => h("li", { "data-sample": name }, name || "(empty)"))),
    clear: () => list.replaceChildren(),
    temperature: () => Number(temperature.value),
  };
}

/** The buttons, the figures, the names and the plot, and how the trainer updates them. */
function gptView(uniform) {
  const button = (text, primary) =>
    h("button", { type: "button", class: primary ? "mg-button mg-button--primary" : "mg-button" }, text);
  const buttons = {
    train: button("Train", true),
    pause: button("Pause"),
    step: button("Step"),
    reset: button("Reset"),
    more: button("More names"),
  };
  const stats = h("p", { class: "mg-train__stats", "data-step": "0", "data-loss": "" });
  const spoken = h("p", { class: "mg-visually-hidden", "aria-live": "polite" });
  const warning = h("p", { class: "mg-notice mg-notice--warning", hidden: true });
  const message = h("p", { class: "mg-notice mg-notice--warning", role: "alert", hidden: true });
  const lossPlot = lossCurves(uniform);
  let announced = 0; // the step last said aloud
  const samples = namesPart();
  const lossFigure = h(
    "figure",
    {},
    lossPlot.el,
    h(
      "figcaption",
      {},
      `Loss per step: each name’s (faint), smoothed (solid), a uniform guess’s ${uniform.toFixed(2)} (dashed)`,
    ),
  );
  // a notice's words: a string, or parts with links (where.js); none hides it
  const notice = (el, words) => {
    const parts = typeof words === "string" ? [words] : (words ?? []);
    el.hidden = !parts.length;
    el.replaceChildren(h("span", {}, ...said(parts))); // one flex item: the words flow as text
  };
  return {
    ...{ buttons, stats, spoken, warning, message, lossPlot, lossFigure },
    samplesFigure: samples.figure,
    temperature: samples.temperature,
    setRunning(running) {
      buttons.train.disabled = running;
      buttons.pause.disabled = !running;
      buttons.step.disabled = running;
    },
    warn: (text) => notice(warning, text),
    /** Warns unless a warning is shown already (what was said first stays). */
    warnOnce: (text) => warning.hidden && notice(warning, text),
    say: (text) => notice(message, text),
    paused() {
      stats.textContent = `Paused at ${stats.textContent.replace(/^Step/, "step")}`;
      spoken.textContent = stats.textContent;
    },
    /** Says what stopped training (parts); the warning goes when the stop says it all. */
    stopped(problem, replacesWarning) {
      if (replacesWarning) notice(warning, null);
      notice(message, [...problem, " The plot and the names keep what was drawn; Train starts again."]);
      spoken.textContent = text(problem);
    },
    show({ step, steps, smoothed, rate, perSecond }) {
      stats.dataset.step = String(step);
      stats.dataset.loss = smoothed === null ? "" : String(smoothed);
      const parts = [`Step ${step} of ${steps}`];
      if (smoothed !== null) parts.push(`loss ${smoothed.toFixed(4)} (smoothed)`);
      if (perSecond) parts.push(`${perSecond.toFixed(1)} steps/s`);
      if (rate !== undefined) parts.push(`learning rate ${rate.toPrecision(2)}`);
      stats.textContent = parts.join(" · ");
      if (step - announced >= ANNOUNCE_EVERY) {
        announced = step;
        spoken.textContent = stats.textContent;
      }
    },
    names: samples.show,
    clear() {
      notice(message, null);
      notice(warning, null);
      lossPlot.reset();
      samples.clear();
      announced = 0;
      stats.dataset.step = "0";
      stats.dataset.loss = "";
      stats.textContent = "Not trained yet.";
    },
  };
}

/** Whom words.js can blame: the ops, the switches turned on, the ops still at their starters. */
const whom = (data, settings, source) => ({
  ops: data.ops,
  broken: settings.broken(),
  starters: source.starters().map((op) => op.op),
});

/**
 * Trains in a session of the page's Python, a chunk of steps at a time, sampling names now and
 * then: `{loop(), pause(), once(), sample(), restart()}`.
 */
function createTrainer({ data, settings, source, view, root }) {
  // the runner's session, its first answer, and its start while under way
  let [session, started, opening] = [null, null, null];
  let [running, paused, step, lastSample] = [false, false, 0, -Infinity];
  const speed = speedometer();

  const begin = () => (session ? Promise.resolve(true) : (opening ??= start().finally(() => (opening = null))));
  async function start() {
    const opened = await open(data, settings, source, view, context);
    session = opened?.session ?? null;
    if (!opened || !settled(opened.answer)) return false;
    started = opened.answer;
    return true;
  }

  const context = () => whom(data, settings, source);

  /** Ends the session on a stop, a crash, a problem or an error in the learner's code; true if none. */
  function settled(answer) {
    if (answer.stopped === "stop") return false;
    const problem = problemText(answer, step, data.time_limit, context());
    if (!problem) return true;
    view.stopped(problem, Boolean(answer.problem?.stalled));
    end();
    return false;
  }

  /** Takes up to `count` steps in the session (starting it if needed) and shows them. */
  async function advance(count) {
    if (!(await begin())) return false;
    const began = performance.now();
    const answer = await session.request("gpt-steps", { count, budget: CHUNK.budget });
    (answer.losses ?? []).forEach((loss, i) => view.lossPlot.add(step + i + 1, loss, answer.smoothed[i]));
    if (answer.losses?.length) view.lossPlot.redraw();
    if (!settled(answer)) return false;
    if (running) speed.add(answer.losses.length, performance.now() - began);
    step = answer.step;
    const smoothed = answer.smoothed.at(-1) ?? null;
    view.show({ step, steps: settings.config().steps, smoothed, rate: answer.rate, perSecond: speed.perSecond() });
    if (worseThanGuessing(step, smoothed, data.vocab_size))
      view.warnOnce(culpritText(started.disagree, "worse", context()));
    return true;
  }

  /** Fresh names from the model as it is; false if the session has ended. */
  async function sample() {
    lastSample = performance.now();
    const answer = await session.request("gpt-sample", { count: SAMPLES, temperature: view.temperature() });
    if (!settled(answer)) return false;
    view.names(answer.names);
    return true;
  }

  function end() {
    session?.stop();
    session = null;
    running = false;
    view.setRunning(false);
    return false;
  }

  const finished = () => step >= settings.config().steps;
  return {
    async loop() {
      view.setRunning((running = true));
      paused = false;
      speed.reset();
      while (running && root.isConnected && !finished() && (await advance(CHUNK.count))) {
        // the first names after the first chunk, then every few seconds
        if (performance.now() - lastSample > SAMPLE_EVERY_MS && !(await sample())) break;
      }
      if (session && finished()) await sample();
      view.setRunning((running = false));
      if (paused) view.paused();
    },
    // "Paused" is said once the chunk under way has been shown
    pause: () => ([running, paused] = [false, true]),
    async once() {
      view.buttons.step.disabled = true;
      if ((await advance(1)) && step === 1) await sample();
      view.buttons.step.disabled = running;
    },
    // requests take turns (serial), so More names may be pressed at any time
    sample: async () => (await begin()) && (await sample()),
    restart() {
      end();
      [step, lastSample, started] = [0, -Infinity, null];
      view.clear();
      source.refresh();
    },
  };
}

/**
 * `session` taking one request at a time, in the order asked: Step, Train and More names may
 * be pressed while a request is under way. A request whose turn comes after the session ended
 * is answered `{stopped: "stop"}`.
 */
function serial(session) {
  let queue = Promise.resolve();
  let ended = false;
  return {
    request(type, fields) {
      const answer = queue.then(() => (ended ? { stopped: "stop" } : session.request(type, fields)));
      queue = answer;
      return answer;
    },
    stop() {
      ended = true;
      session.stop();
    },
  };
}

/** Steps per second while training: `{add(steps, ms), perSecond(), reset()}`. */
function speedometer() {
  let steps = 0;
  let ms = 0;
  return {
    add(more, took) {
      steps += more;
      ms += took;
    },
    perSecond: () => (ms > 0 ? (1000 * steps) / ms : 0),
    reset: () => (steps = ms = 0),
  };
}

/** Whether the smoothed loss says the model does worse than a uniform guess, past the first steps. */
const worseThanGuessing = (step, smoothed, vocabSize) =>
  step >= 20 && smoothed !== null && smoothed > Math.log(vocabSize) + WORSE_THAN_GUESSING;

/**
 * A runner's session, started on the names and the learner's code: `{session, answer}` (the
 * runner's first answer, a tuple a nudge disagrees with warned of), or null when Python or the
 * names could not be had (said in `view`).
 */
async function open(data, settings, source, view, context) {
  view.say(null);
  source.refresh();
  const names = fetch(NAMES_URL).then((response) => {
    if (!response.ok) throw new Error(`${NAMES_URL.pathname} answered ${response.status}`);
    return response.text();
  });
  const session = await python.train({ timeLimit: data.time_limit }).catch((error) => {
    view.say(`Python is not available: ${error.message}`);
    return null;
  });
  if (!session) return null;
  const text = await names.catch((error) => {
    view.say(`The names to train on could not be loaded: ${error.message}`);
    return null;
  });
  if (text === null) {
    session.stop();
    return null;
  }
  const config = settings.config();
  const answer = await session.request("gpt-start", { bodies: source.bodies(), config, names: text });
  if (answer.disagree) view.warn(culpritText(answer.disagree, "start", context()));
  return { session: serial(session), answer };
}

/** The model's settings and the "break it" switches: `{el, controls, config(), broken()}`. */
function settingsPart(defaults, id) {
  const field = (label, control) => h("label", { class: "mg-train__field" }, h("span", {}, label), control);
  const option = (value, text, selected) => h("option", { value: String(value), selected }, text);
  const select = (choices, chosen) =>
    h(
      "select",
      {},
      choices.map(([value, text]) => option(value, text, value === chosen)),
    );
  const width = select(
    [
      [8, "8"],
      [16, "16 (microgpt’s)"],
      [32, "32 (slower)"],
    ],
    defaults.n_embd,
  );
  const layers = select(
    [
      [1, "1 (microgpt’s)"],
      [2, "2 (slower)"],
    ],
    defaults.n_layer,
  );
  const number = (value, min, max, step) =>
    h("input", { type: "number", min: String(min), max: String(max), step: String(step), value: String(value) });
  const steps = number(defaults.steps, 10, 5000, 10);
  const rate = number(defaults.learning_rate, 0.001, 0.1, 0.001);
  const seed = number(defaults.seed, 1, 9999, 1);
  const breaks = {
    wrong_log: h("input", { type: "checkbox" }),
    wrong_exp: h("input", { type: "checkbox" }),
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
      ...[field("Width (n_embd)", width), field("Layers", layers), field("Steps", steps)],
      ...[field("Learning rate", rate), field("Seed", seed)],
    ),
    h(
      "fieldset",
      {},
      h("legend", {}, "Break it, and watch what happens"),
      check(breaks.wrong_log, code("log"), " returns ", code("(x,)"), ": x where 1/x belongs"),
      check(breaks.wrong_exp, code("exp"), " returns ", code("(x,)"), ": x where eˣ belongs"),
      check(breaks.no_zero_grad, "Never set ", code("p.grad = 0"), " between steps"),
      check(breaks.rate_too_high, `A learning rate ${BREAK_RATE} times microgpt’s`),
    ),
  );
  const config = () => ({
    n_embd: Number(width.value),
    n_layer: Number(layers.value),
    steps: Number(steps.value),
    learning_rate: Number(rate.value) * (breaks.rate_too_high.checked ? BREAK_RATE : 1),
    seed: Number(seed.value),
    zero_grad: !breaks.no_zero_grad.checked,
    wrong_log: breaks.wrong_log.checked,
    wrong_exp: breaks.wrong_exp.checked,
  });
  /** The switches turned on, by name. */
  const broken = () => Object.keys(breaks).filter((key) => breaks[key].checked);
  return { el, controls: [width, layers, steps, rate, seed, ...Object.values(breaks)], config, broken };
}
