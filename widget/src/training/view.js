/**
 * What both trainers show alike (the moons', training.js, and microgpt's): the frame, the
 * buttons and what each does, the line of figures (said aloud now and then), the notices, and
 * the settings' frame with its "break it" switches. Each widget puts its own plots, words and
 * settings in it.
 */
import { h, uid } from "../shared/dom.js";
import { python } from "../python/python.js";
import { statusLine } from "../exercise/status.js";
import { said, sourcePart } from "../exercise/source.js";
import { followScheme } from "../plots/plots.js";
import { bugTabLink } from "../exercise/where.js";
import { Trainer } from "./trainer.js";
import { failed } from "./verdict.js";

/**
 * Hydrates a trainer's root: its data from `<template data-{name}-data>`, then `build({data,
 * id, source, trainer})` makes the widget's own part, `{settings, view, parts, body, restyle}`:
 * its settings (`{el, controls}`, the controls restarting it), its view (trainerView's), its
 * part of the trainer (trainer.js; `trainer()` is the trainer, once made), what it shows under
 * the buttons, and how its plots take a new colour scheme. `source` is the learner's choice of
 * code (exercise/source.js). The trainer's state is announced as `data-state` on the root.
 */
export function mountTrainer(root, { name, prefix, classes = [] }, build) {
  const carrier = root.querySelector(`template[data-${name}-data]`);
  const data = JSON.parse(carrier.content.textContent);
  carrier.remove();
  const id = uid(prefix);
  const source = sourcePart(data.trained_ops, id, () => trainer.restart());
  const { settings, view, parts, body, restyle } = build({ data, id, source, trainer: () => trainer });
  const announce = (state) => {
    view.state(state);
    root.dataset.state = state;
  };
  const trainer = new Trainer({ ...parts, connected: () => root.isConnected, announce });
  root.classList.add("mg-widget", "mg-train", ...classes);
  const actions = h("div", { class: "mg-actions" }, ...Object.values(view.buttons));
  const main = h("div", { class: "mg-train__body" }, source.el, actions, ...body);
  root.append(h("div", { class: "mg-frame" }, main, settings.el, statusLine()));
  const { train, pause, step, reset } = view.buttons;
  train.addEventListener("click", () => trainer.train());
  pause.addEventListener("click", () => trainer.pause());
  step.addEventListener("click", () => trainer.stepOnce());
  reset.addEventListener("click", () => trainer.restart());
  for (const control of settings.controls) control.addEventListener("change", () => trainer.restart());
  followScheme(root, restyle);
  trainer.restart();
}

/**
 * A session of the page's Python for training, on the code the learner chose (`source`,
 * refreshed), or null when Python is not available (said in `view`).
 */
export async function pythonSession(data, source, view) {
  view.say(null);
  source.refresh();
  return python.session({ timeLimit: data.time_limit }).catch((error) => {
    view.say(`Python is not available: ${error.message}`);
    return null;
  });
}

/** A notice's words: a string, or exercise/where.js's parts (with links); none hides it. */
export function notice(el, words) {
  const parts = typeof words === "string" ? [words] : (words ?? []);
  el.hidden = !parts.length;
  el.replaceChildren(h("span", {}, ...said(parts))); // one flex item: the words flow as text
}

/**
 * The buttons (Train, Pause, Step, Reset, then `more`'s), the line of figures and the alert,
 * and how the trainer's state shows on them: `figures` are the data attributes of the line
 * (`data-step` and the widget's own, at their untrained values); the line is said aloud every
 * `every` steps.
 */
export function trainerView({ figures, every, more = {} }) {
  const button = (text, primary) =>
    h("button", { type: "button", class: primary ? "mg-button mg-button--primary" : "mg-button" }, text);
  const buttons = {
    ...{ train: button("Train", true), pause: button("Pause"), step: button("Step"), reset: button("Reset") },
    ...Object.fromEntries(Object.entries(more).map(([key, text]) => [key, button(text)])),
  };
  const untrained = { "data-step": "0", ...figures };
  const stats = h("p", { class: "mg-train__stats", ...untrained });
  const spoken = h("p", { class: "mg-visually-hidden", "aria-live": "polite" });
  const message = h("p", { class: "mg-notice mg-notice--warning", role: "alert", hidden: true });
  const finishedNote = h("p", { class: "mg-notice", role: "status", "data-finished": "", hidden: true });
  let announced = 0; // the step last said aloud
  const setFigures = (values) => Object.entries(values).forEach(([name, value]) => stats.setAttribute(name, value));
  const finish = (words, { finished, kind } = {}) => {
    notice(finishedNote, words);
    finishedNote.dataset.finished = (words && finished) || "";
    finishedNote.dataset.verdict = (words && kind) || "";
    finishedNote.classList.toggle("mg-notice--warning", Boolean(words) && failed({ kind }));
    if (words) spoken.textContent = finishedNote.textContent;
  };
  return {
    ...{ buttons, stats, spoken, message, finishedNote },
    say: (words) => notice(message, words),
    /** Says why training stopped by itself and how the run went (`words`, parts), or nothing:
     * `finished` why ("converged", "limit", "failed", "steps"), `kind` the verdict's (verdict.js). */
    finish,
    /** The line of figures once a problem stopped training at `step`, if a step was taken. */
    halted(step) {
      if (!step) return;
      setFigures({ "data-step": String(step) });
      stats.textContent = `Stopped at step ${step}.`;
    },
    speak(text) {
      spoken.textContent = text;
    },
    /** Shows the trainer's state (trainer.js) on the buttons. */
    state(state) {
      const running = state === "training" || state === "pausing";
      buttons.train.disabled = running;
      buttons.pause.disabled = !running;
      buttons.step.disabled = running || state === "stepping";
    },
    /** Shows `text` for `step`, with the line's data attributes `values`. */
    show(step, text, values) {
      setFigures({ "data-step": String(step), ...values });
      stats.textContent = text;
      if (step - announced >= every) {
        announced = step;
        spoken.textContent = text;
      }
    },
    paused() {
      stats.textContent = `Paused at ${stats.textContent.replace(/^Step/, "step")}`;
      spoken.textContent = stats.textContent;
    },
    clear() {
      notice(message, null);
      finish(null);
      setFigures(untrained);
      stats.textContent = "Not trained yet.";
      announced = 0;
    },
  };
}

/** A setting with its label. */
export const field = (label, control) => h("label", { class: "mg-train__field" }, h("span", {}, label), control);

/** A `<select>` of `[value, text]` choices, `chosen` selected. */
export const select = (choices, chosen) =>
  h(
    "select",
    {},
    choices.map(([value, text]) => h("option", { value: String(value), selected: value === chosen }, text)),
  );

/** A number input. */
export const number = (value, min, max, step) =>
  h("input", { type: "number", min: String(min), max: String(max), step: String(step), value: String(value) });

/** A "break it" switch's checkbox, labelled. */
export const check = (input, ...text) => h("label", { class: "mg-train__check" }, input, " ", ...text);

/** A switch, and beside it (not in its label) a link to the find-the-bug tab of its bug, if
 * one has it (`exercise`: the training data's `find_the_bug` of the switch). */
export const withBugTab = (label, exercise) =>
  exercise ? h("div", { class: "mg-train__switch" }, label, " (", said([bugTabLink(exercise)]), ")") : label;

/** Text in code type. */
export const code = (text) => h("code", {}, text);

/** The settings, folded: the model's fields, then the "break it" switches (`check`s). */
export function settingsFrame(id, fields, switches) {
  return h(
    "details",
    { class: "mg-details mg-train__settings", id },
    h("summary", {}, "Settings and “break it”"),
    h("fieldset", {}, h("legend", {}, "The model and its training (a change starts again)"), ...fields),
    h("fieldset", {}, h("legend", {}, "Break it, and watch what happens"), ...switches),
  );
}
