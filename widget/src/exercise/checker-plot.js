/**
 * The checker tab's plot: the relative error of a central and a forward difference against the
 * gradient the learner's own `tanh` and `exp` closures give, for h from 1e-1 down to 1e-12, on
 * log-log axes (the U of truncation and rounding), and what the central difference measures at
 * relu's kink. Measured in a runner (runner/checker.py `sweep`, through the nudge message) with
 * the course's own difference formulas, so that the curve is the truth about the closures
 * whatever the learner's checker does; whose closures, the learner's or the reference for tabs
 * not passed, is chosen as the trainers choose (widget/src/training/source.js).
 *
 * Testing contract: a button named "Measure"; the plot's element has `data-plot` set to
 * "drawn" once drawn, and `data-central` to the JSON of its first curve's central errors (one
 * per h, in `data-hs`' order); the kink's sentence has `data-kink-slope`.
 */
import "../training/locale.js"; // first: uPlot reads the language as it loads
import uPlot from "uplot";
import { h } from "../page/dom.js";
import { python } from "../python/python.js";
import { MEASURE, sourcePart } from "../training/source.js";
import { crashCause } from "./page-results.js";

const css = (el, name) => getComputedStyle(el).getPropertyValue(name).trim();
/** A tick's label, 1e-5; none for a tick uPlot leaves unlabelled (null). */
const exponent = (value) => (value > 0 ? `1e${Math.round(Math.log10(value))}` : "");
const seven = (value) => (typeof value === "number" ? value.toFixed(7) : String(value));

/** `{el, stale()}`, as nudge.js's tool: the plot's section, measured when the learner presses
 * Measure (the learner's checker code plays no part in it, so a change of it changes nothing). */
export function checkerPlot({ exercise, timeLimit }) {
  const source = sourcePart(exercise.plot, `${exercise.id}-plot`, () => {}, MEASURE);
  const figure = h("div", { class: "mg-checker-plot", role: "img", "aria-label": "Not measured yet." });
  const said = h("div", { class: "mg-checker-plot__said", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "mg-button" }, "Measure");
  const el = h(
    "section",
    { class: "mg-checker-plot__section", "aria-label": "The error against h" },
    h("h4", {}, "Your closures against h"),
    h(
      "p",
      {},
      "Measures the slope of ",
      h("code", {}, "tanh"),
      " at 0.5 and ",
      h("code", {}, "exp"),
      " at 1.0 with the course's own central and forward differences, at every h from 1e-1 down to 1e-12, and plots each one's relative error against the gradient your closure gives (solid: central; dashed: forward), both axes in powers of ten.",
    ),
    source.el,
    button,
    figure,
    said,
  );
  source.refresh();
  let plot = null;
  button.addEventListener("click", async () => {
    source.refresh(); // tabs passed since the page was opened
    button.disabled = true;
    said.replaceChildren(h("p", {}, "Measuring…"));
    try {
      const handle = python.grade(exercise.id, source.bodies(), {
        timeLimit,
        owner: said,
        nudge: { values: {}, h: 0 },
      });
      const outcome = await handle.done;
      const found = outcome.nudged;
      if (!found || found.error) {
        const why =
          found?.error?.summary ?? (outcome.crashed !== undefined ? crashCause(outcome.crashed) : "no answer");
        said.replaceChildren(h("p", {}, `The measurement did not finish: ${why}.`));
        return;
      }
      plot?.destroy();
      plot = found.curves.some((curve) => !curve.error) ? draw(figure, found) : null;
      said.replaceChildren(...sentences(found));
    } catch (error) {
      said.replaceChildren(h("p", {}, `Python is not available: ${error.message}`));
    } finally {
      button.disabled = false;
    }
  });
  return { el, stale: () => {} };
}

/** The curves as uPlot draws them: a log-log plot, zeros left out (a log axis has no 0). */
function draw(figure, found) {
  const curves = found.curves.filter((curve) => !curve.error);
  const positive = (values) => values.map((v) => (typeof v === "number" && v > 0 ? v : null));
  const data = [found.hs, ...curves.flatMap((curve) => [positive(curve.central), positive(curve.forward)])];
  const fg = css(figure, "--md-default-fg-color--light");
  const grid = { stroke: css(figure, "--md-default-fg-color--lightest"), width: 1 };
  const colours = [css(figure, "--mg-pass"), css(figure, "--md-accent-fg-color") || css(figure, "--mg-fail")];
  const series = [
    {},
    ...curves.flatMap((curve, i) => [
      { label: `${curve.op} central`, stroke: colours[i % 2], width: 2 },
      { label: `${curve.op} forward`, stroke: colours[i % 2], width: 2, dash: [6, 4] },
    ]),
  ];
  const width = Math.max(260, figure.clientWidth || 320);
  // a tick at every power of ten (every third on a phone's width), labelled 1e-5
  const errors = data
    .slice(1)
    .flat()
    .filter((v) => v !== null);
  const [low, high] = [Math.floor(Math.log10(Math.min(...errors))), Math.ceil(Math.log10(Math.max(...errors)))];
  const decades = (from, to, step) =>
    Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => 10 ** (from + i * step));
  const options = {
    width,
    height: 260,
    cursor: { show: false },
    legend: { show: true, live: false },
    scales: {
      x: { time: false, distr: 3, dir: -1, range: [1e-12, 1e-1] },
      y: { distr: 3, range: [10 ** low, 10 ** high] },
    },
    axes: [
      {
        stroke: fg,
        grid,
        label: "h (log scale)",
        splits: () => decades(-12, -1, width < 500 ? 3 : 1),
        filter: (u, splits) => splits, // every split labelled: uPlot's log filter drops some
        values: (u, ticks) => ticks.map(exponent),
      },
      {
        stroke: fg,
        grid,
        label: "relative error (log scale)",
        splits: () => decades(low, high, high - low > 8 ? 3 : 2),
        filter: (u, splits) => splits,
        values: (u, ticks) => ticks.map(exponent),
        size: 60,
      },
    ],
    series,
  };
  figure.replaceChildren();
  const chart = new uPlot(options, data, figure);
  const first = curves[0];
  figure.dataset.hs = JSON.stringify(found.hs);
  figure.dataset.central = JSON.stringify(first?.central ?? []);
  figure.dataset.plot = "drawn";
  figure.setAttribute("aria-label", describe(found.hs, curves));
  return chart;
}

/** The plot's text alternative: where each central curve is lowest, and its two ends. */
function describe(hs, curves) {
  return curves
    .map((curve) => {
      const errors = curve.central.map((v) => (typeof v === "number" ? v : Infinity));
      const best = errors.indexOf(Math.min(...errors));
      return `${curve.op}: the central difference's relative error is ${errors[0].toExponential(1)} at h = 1e-1, smallest (${errors[best].toExponential(1)}) at h = ${hs[best].toExponential(0)}, and ${errors.at(-1).toExponential(1)} at h = 1e-12.`;
    })
    .join(" ");
}

/** What the plot shows at its lowest point, and relu's kink, in words. */
function sentences(found) {
  const parts = [];
  for (const curve of found.curves) {
    if (curve.error) parts.push(h("p", {}, `Your ${curve.op} closure raised: ${curve.error}.`));
  }
  const kink = found.kink;
  if (kink.error) parts.push(h("p", {}, `Your relu closure raised: ${kink.error}.`));
  else {
    parts.push(
      h(
        "p",
        { "data-kink-slope": String(kink.slope) },
        "At relu's kink, x = 0, the slope measured with h = ",
        String(kink.h),
        ` is ${seven(kink.left)} on the left and ${seven(kink.right)} on the right, and the central difference averages them: ${seven(kink.slope)}. Your closure's gradient there is ${seven(kink.grad)}. At a kink no single slope exists, so whatever the engine chooses, a checker there raises a false alarm or hides a real one: keep its points away from kinks.`,
      ),
    );
  }
  return parts;
}
