/**
 * "Nudge": an op tab's local derivatives measured on the learner's own Value class
 * (runner/nudge.py). The learner picks the inputs (the tab's first check's, at first) and h;
 * each input is nudged by h up and down, and (out(x + h) − out(x − h)) / 2h stands beside the
 * gradient the learner's code gives it from out.grad = 1. It runs in a fresh runner like any
 * run, and it decides nothing: no verdict, no mark.
 *
 * The output's value stands beside the slopes (the prompts ask for formulas in it), the
 * exponent of a power can be changed, and figures from code or inputs that changed since are
 * marked out of date until the next press.
 *
 * Testing contract: a button named "Nudge"; each input's figure in an element with
 * `data-nudge-input` (its name) and `data-slope` (the number); the output's in one with
 * `data-nudge-output`; the list has `data-stale` while its figures are out of date, and an item
 * with `data-nudge-h` when the runner measured with another h than the one typed.
 */
import { h } from "../shared/dom.js";
import { python } from "../python/python.js";
import { crashCause } from "./page-results.js";

const DEFAULT_H = "0.00001";

/** The tool for `exercise` (an op tab), running the code `code()` returns: `{el, stale()}`,
 * `stale()` to call when the code changes. */
export function nudgePart({ exercise, code, timeLimit }) {
  const fields = numberFields(exercise.nudge);
  const step = h("input", { type: "number", step: "any", min: "0", value: DEFAULT_H, "aria-label": "h, the nudge" });
  const results = h("ul", { class: "mg-nudge__results", "aria-live": "polite" });
  const staleNote = h(
    "p",
    { class: "mg-note mg-nudge__stale", hidden: true },
    "Out of date: the code or the numbers changed since. Press Nudge to measure again.",
  );
  // any answer shown (figures, an error, a time-out) was about the code and numbers sent
  let measuring = false;
  const stale = () => {
    if (!results.firstChild || measuring) return;
    results.dataset.stale = "";
    staleNote.hidden = false;
  };
  for (const input of [...Object.values(fields), step]) input.addEventListener("input", stale);
  const button = h("button", { type: "button", class: "mg-button" }, "Nudge");
  const el = nudgeSection(exercise.nudge.build, { fields, step, button, staleNote, results });
  button.addEventListener("click", async () => {
    button.disabled = true;
    measuring = true;
    delete results.dataset.stale;
    staleNote.hidden = true;
    results.replaceChildren(h("li", {}, "Measuring…"));
    const values = Object.fromEntries(Object.entries(fields).map(([name, input]) => [name, Number(input.value)]));
    // what was measured: the code and every number, to tell whether they changed meanwhile
    const asked = () => JSON.stringify([code(), Object.values(fields).map((i) => i.value), step.value]);
    const sent = asked();
    const typed = Number(step.value);
    try {
      const handle = python.grade(
        exercise.id,
        { [exercise.ops[0]]: code() },
        { timeLimit, owner: results, nudge: { values, h: typed } },
      );
      results.replaceChildren(...said(await handle.done, timeLimit, typed));
    } catch (error) {
      results.replaceChildren(h("li", {}, `Python is not available: ${error.message}`));
    } finally {
      measuring = false;
      if (asked() !== sent) stale(); // changed while it measured
      button.disabled = false;
    }
  });
  return { el, stale };
}

/** An input per number of the nudge's build (`{name: input}`): its inputs', at the tab's first
 * check's values, and a power's exponent `n` when it has one. */
function numberFields({ inputs, exponent }) {
  const numbers = exponent === null || exponent === undefined ? inputs : { ...inputs, n: exponent };
  return Object.fromEntries(
    Object.entries(numbers).map(([name, value]) => [
      name,
      h("input", {
        type: "number",
        step: "any",
        value: String(value),
        "aria-label": name === "n" && !(name in inputs) ? "n, the exponent" : `value of ${name}`,
      }),
    ]),
  );
}

/** The tool's section: what it measures on `build`, the numbers and h, the button and the figures. */
function nudgeSection(build, { fields, step, button, staleNote, results }) {
  const field = (label, input) => h("label", { class: "mg-nudge__field" }, h("code", {}, label), " = ", input);
  return h(
    "details",
    { class: "mg-details mg-nudge" },
    h("summary", {}, "Measure it: nudge the inputs"),
    h(
      "p",
      {},
      "Nudges each input of ",
      h("code", {}, build),
      " up and down by h and measures how far the output moves: the slope, (out(x + h) − out(x − h)) / 2h. Beside it, the gradient your code gives that input when out.grad is 1, and the output's own value.",
    ),
    h(
      "div",
      { class: "mg-nudge__inputs" },
      ...Object.entries(fields).map(([name, input]) => field(name, input)),
      field("h", step),
    ),
    button,
    staleNote,
    results,
  );
}

/** What a nudge found, an item per input and one for the output (and the h it took, when not
 * the one `typed`: runner/nudge.py takes its own for an h that cannot nudge); or why it found nothing. */
function said(outcome, timeLimit, typed) {
  const found = outcome.nudged;
  if (!found) {
    const why =
      outcome.crashed !== undefined
        ? `Python crashed: ${crashCause(outcome.crashed)}`
        : outcome.stopped
          ? `still running after ${timeLimit} seconds`
          : "no answer";
    return [h("li", {}, `The nudge did not finish: ${why}.`)];
  }
  // an error outside the learner's code is the numbers' (runner/nudge.py says so in its summary)
  if (found.error)
    return [h("li", {}, found.error.slot ? `Your code raised: ${found.error.summary}.` : `${found.error.summary}.`)];
  const output = h(
    "li",
    { "data-nudge-output": String(found.output) },
    "The output, ",
    h("code", {}, "out.data"),
    ` = ${seven(found.output)}, from `,
    h("code", {}, found.built),
    ".",
  );
  const slopes = found.inputs.map((input) =>
    h(
      "li",
      { "data-nudge-input": input.name, "data-slope": String(input.slope) },
      h("code", {}, input.name),
      ` = ${input.value}: the output moves ${seven(input.slope)} per unit of ${input.name}`,
      "left" in input ? ` (a kink: ${seven(input.left)} on the left, ${seven(input.right)} on the right)` : "",
      "; your code gives ",
      h("code", {}, `${input.name}.grad`),
      ` = ${seven(input.got)}.`,
    ),
  );
  if (found.h === typed) return [...slopes, output];
  const took = `That h cannot nudge (it must be above 0 and not huge): measured with h = ${found.h}.`;
  return [h("li", { "data-nudge-h": "" }, took), ...slopes, output];
}

/** A number at seven decimals, or the name of what it was (runner/numbers.py). */
function seven(value) {
  if (typeof value === "number") return value.toFixed(7).replace(/^-(0\.0+)$/, "$1");
  if (typeof value === "string") return value;
  return value?.type === "complex" ? "not a real number" : `a ${value?.type ?? "?"}`;
}
