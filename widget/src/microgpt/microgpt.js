/**
 * The microgpt widget: Karpathy's microgpt learns to make up names, trained by Adam through the
 * Value class of the local-gradients tabs (the learner's own tuples), in a runner of its own
 * (microgpt/worker.py), a few steps at a time by the shell both trainers share
 * (widget/src/training/trainer.js, view.js). What is its own here: the names it trains on and
 * makes up, its settings, its speed and its warnings. Live: the loss (each name's, smoothed, and a uniform guess's), steps per second, and names
 * sampled every few seconds; "break it" switches show what a wrong piece does, and say which.
 *
 * Once it has taken all its steps, it says how the run went (widget/src/training/verdict.js):
 * the loss fell, or it rose, leapt or stayed at a uniform guess's, and who is to blame.
 *
 * Testing contract: the root has `data-microgpt-widget`; a button named "Train" starts it; an
 * element with `data-step` and `data-loss` (the smoothed loss) follows it; each sampled name is
 * in an element with `data-sample`; the element with `data-finished` says how the run went once
 * it took all its steps, its `data-verdict` the verdict's kind; the root's `data-state` is the
 * trainer's state (trainer.js).
 */
import { h, uid } from "../shared/dom.js";
import { lossCurves } from "../plots/plots.js";
import {
  check,
  code,
  field,
  mountTrainer,
  pythonSession,
  notice,
  number,
  select,
  settingsFrame,
  trainerView,
} from "../training/view.js";
import { culpritText, endText, problemText } from "./words.js";
import { verdict } from "../training/verdict.js";
import { text } from "../exercise/where.js";
import { fetchNames } from "../shared/names.js";

const CHUNK = { count: 20, budget: 250 }; // steps per request, and the milliseconds it may take
const SAMPLE_EVERY_MS = 5000; // fresh names while training: a set costs a few steps
const SAMPLES = 8;
const ANNOUNCE_EVERY = 50; // steps between spoken updates
const BREAK_RATE = 10; // "learning rate × 10"
const WORSE_THAN_GUESSING = 0.5; // a smoothed loss this far above a uniform guess is said
/** Hydrates one `<div data-microgpt-widget>`. */
export function mountMicrogpt(root) {
  const widget = { name: "microgpt", prefix: "mg-gpt", classes: ["mg-gpt"] };
  mountTrainer(root, widget, ({ data, id, source, trainer }) => {
    const settings = settingsPart(data.config, id);
    const view = gptView(Math.log(data.vocab_size));
    const parts = gptParts({ data, settings, source, view, trainer });
    // requests take turns (trainer.js), so More names may be pressed at any time
    view.buttons.more.addEventListener("click", () => parts.sample());
    const plots = h("div", { class: "mg-train__plots" }, view.samplesFigure, view.lossFigure);
    const body = [view.stats, view.spoken, view.warning, view.message, view.finishedNote, plots];
    return { settings, view, parts, body, restyle: () => view.lossPlot.restyle() };
  });
}

/** The names the model makes up, and the temperature to sample at: `{figure, show(names),
 * clear(), temperature()}`. */
function namesPart() {
  const list = h("ol", { class: "mg-gpt__names", "aria-live": "polite", "aria-atomic": "true" });
  const temperature = h("input", { type: "range", min: "0.1", max: "1.5", step: "0.1", value: "0.5" });
  const shown = h("output", {}, temperature.value);
  temperature.addEventListener("input", () => {
    shown.value = temperature.value;
  });
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

/** The shared view (view.js), with the names, the loss plot and a warning. */
function gptView(uniform) {
  const view = trainerView({ figures: { "data-loss": "" }, every: ANNOUNCE_EVERY, more: { more: "More names" } });
  const warning = h("p", { class: "mg-notice mg-notice--warning", hidden: true });
  const lossPlot = lossCurves(uniform);
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
  return {
    ...view,
    ...{ warning, lossPlot, lossFigure },
    samplesFigure: samples.figure,
    temperature: samples.temperature,
    warn: (words) => notice(warning, words),
    /** Warns unless a warning is shown already (what was said first stays). */
    warnOnce: (words) => warning.hidden && notice(warning, words),
    /** Says what stopped training (parts); the warning goes when the stop says it all. */
    stopped(problem, answer) {
      view.halted(answer.step ?? answer.problem?.step);
      if (answer.problem?.stalled) notice(warning, null);
      view.say([...problem, " The plot and the names keep what was drawn; Train starts again."]);
      view.speak(text(problem));
    },
    show({ step, steps, smoothed, rate, perSecond }) {
      const parts = [`Step ${step} of ${steps}`];
      if (smoothed !== null) parts.push(`loss ${smoothed.toFixed(4)} (smoothed)`);
      if (perSecond) parts.push(`${perSecond.toFixed(1)} steps/s`);
      if (rate !== undefined) parts.push(`learning rate ${rate.toPrecision(2)}`);
      view.show(step, parts.join(" · "), { "data-loss": smoothed === null ? "" : String(smoothed) });
    },
    /** Says how the run went once it has taken all its steps (`{words, kind}`), the warning
     * gone when these words blame someone too. */
    ended({ words, kind }) {
      if (kind !== "fit") notice(warning, null);
      view.finish(words, { finished: "steps", kind });
    },
    names: samples.show,
    clear() {
      view.clear();
      notice(warning, null);
      lossPlot.reset();
      samples.clear();
    },
  };
}

/** Whom words.js can blame: the ops, the switches turned on, the ops still at their starters. */
const whom = (data, settings, source) => ({
  trainedOps: data.trained_ops,
  broken: settings.broken(),
  starters: source.starters().map((op) => op.op),
});

/**
 * microgpt's part of the trainer (trainer.js): its names and its speed, names sampled now and
 * then, and the warning when it does worse than guessing; `sample()`, More names.
 */
function gptParts({ data, settings, source, view, trainer }) {
  const context = () => whom(data, settings, source);
  const speed = speedometer();
  let started = null; // the session's first answer: the tuples a nudge disagrees with
  let lastSample = -Infinity; // when names were last sampled
  let asked = 0; // when the steps under way were asked for

  /** Fresh names from the model as it is (its session started if need be); false if it ended. */
  async function sample() {
    lastSample = performance.now();
    const answer = await trainer().request("gpt-sample", { count: SAMPLES, temperature: view.temperature() });
    if (answer) view.names(answer.names);
    return Boolean(answer);
  }

  return {
    chunk: CHUNK.count,
    sample,
    open: () => open(data, settings, source, view, context),
    started(answer) {
      started = answer;
    },
    ask(count) {
      asked = performance.now();
      return ["gpt-steps", { count, budget: CHUNK.budget }];
    },
    came(answer, from) {
      (answer.losses ?? []).forEach((loss, i) => view.lossPlot.add(from + i + 1, loss, answer.smoothed[i]));
      if (answer.losses?.length) view.lossPlot.redraw();
    },
    training: () => speed.reset(),
    shown(answer) {
      if (trainer().state === "training") speed.add(answer.losses.length, performance.now() - asked);
      const { step, rate } = answer;
      const smoothed = answer.smoothed.at(-1) ?? null;
      view.show({ step, steps: settings.config().steps, smoothed, rate, perSecond: speed.perSecond() });
      if (worseThanGuessing(step, smoothed, data.vocab_size))
        view.warnOnce(culpritText(started.disagree, "worse", context()));
      const { steps } = settings.config();
      if (step >= steps) view.ended(judged(view.lossPlot.data[2], steps, data.vocab_size, started, context()));
      return false;
    },
    problem: (answer, step) => problemText(answer, step, data.time_limit, context()),
    stopped: (problem, answer) => view.stopped(problem, answer),
    more: (step) => step < settings.config().steps,
    // the first names after the first chunk, then every few seconds
    async between() {
      const due = performance.now() - lastSample > SAMPLE_EVERY_MS;
      return !due || sample();
    },
    stepped: async (step) => step === 1 && (await sample()),
    finished: sample,
    paused: () => view.paused(),
    cleared() {
      lastSample = -Infinity;
      started = null;
      view.clear();
      source.refresh();
    },
  };
}

/** How a run of `steps` steps went, by its smoothed losses (verdict.js), said: `{words, kind}`. */
function judged(smoothed, steps, vocabSize, started, context) {
  const guess = Math.log(vocabSize);
  const found = verdict({ losses: smoothed, guess });
  return { words: endText(found, steps, guess, started.disagree, context), kind: found.kind };
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
    reset() {
      steps = 0;
      ms = 0;
    },
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
  const names = fetchNames();
  const session = await pythonSession(data, source, view);
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
  return { session, answer };
}

/** The model's settings and the "break it" switches: `{el, controls, config(), broken()}`. */
function settingsPart(defaults, id) {
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
  const steps = number(defaults.steps, 10, 5000, 10);
  const rate = number(defaults.learning_rate, 0.001, 0.1, 0.001);
  const seed = number(defaults.seed, 1, 9999, 1);
  const breaks = {
    wrong_log: h("input", { type: "checkbox" }),
    wrong_exp: h("input", { type: "checkbox" }),
    no_zero_grad: h("input", { type: "checkbox" }),
    rate_too_high: h("input", { type: "checkbox" }),
  };
  const el = settingsFrame(
    id,
    [
      ...[field("Width (n_embd)", width), field("Layers", layers), field("Steps", steps)],
      ...[field("Learning rate", rate), field("Seed", seed)],
    ],
    [
      check(breaks.wrong_log, code("log"), " returns ", code("(x,)"), ", its input, not its local gradient"),
      check(breaks.wrong_exp, code("exp"), " returns ", code("(x,)"), ", its input, not its local gradient"),
      check(breaks.no_zero_grad, "Never set ", code("p.grad = 0"), " between steps"),
      check(breaks.rate_too_high, `A learning rate ${BREAK_RATE} times microgpt’s`),
    ],
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
