/**
 * The checker tab's plot: the relative error of a central and a forward difference against the
 * gradient the learner's own `tanh` and `exp` closures give, for h from 1e-1 down to 1e-12, on
 * log-log axes (the U of truncation and rounding), and what the central difference measures at
 * relu's kink. Measured in a runner (runner/checker.py `sweep`, through the nudge message) with
 * the course's own difference formulas, so that the curve is the truth about the closures
 * whatever the learner's checker does; whose closures, the learner's or the reference for tabs
 * not passed, is chosen as the trainers choose (source.js).
 *
 * Testing contract: a button named "Measure"; the plot's element has `data-plot` set to
 * "drawn" once drawn, and `data-central` to the JSON of its first curve's central errors (one
 * per h, in `data-hs`' order); the kink's sentence has `data-kink-slope`.
 */
import { h } from "../shared/dom.js";
import { python } from "../python/python.js";
import { axisColours, css, fittedPlot, followScheme } from "../plots/plots.js";
import { MEASURE, sourcePart } from "./source.js";
import { crashCause } from "./page-results.js";

/** A tick's label, 1e-5; none for a tick uPlot leaves unlabelled (null). */
const exponent = (value) => (value > 0 ? `1e${Math.round(Math.log10(value))}` : "");
const seven = (value) => (typeof value === "number" ? value.toFixed(7) : String(value));

/** `{el}`: the plot's section, measured when the learner presses Measure (the learner's checker
 * code plays no part in it, so a change of it changes nothing). */
export function checkerPlot({ exercise, timeLimit }) {
  const source = sourcePart(exercise.trained_ops, `${exercise.id}-plot`, () => {}, MEASURE);
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
  const plot = curvePlot(figure);
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
      plot.show(found);
      said.replaceChildren(...sentences(found));
    } catch (error) {
      said.replaceChildren(h("p", {}, `Python is not available: ${error.message}`));
    } finally {
      button.disabled = false;
    }
  });
  return { el };
}

/**
 * The plot in `figure`: `{show(found)}` draws the curves `found` holds that did not raise (none
 * drawn if every one did) and marks the figure as the testing contract says; it keeps to the
 * figure's width and redraws in the colour scheme's colours, as the trainers' plots do.
 */
function curvePlot(figure) {
  let shown = null; // the curves drawn, the options read them
  const chart = fittedPlot(figure, 260, (el) => options(el, shown));
  followScheme(figure, () => chart.drawn() && chart.draw(data(shown)));
  return {
    show(found) {
      const curves = found.curves.filter((curve) => !curve.raised);
      if (!curves.length) return chart.clear();
      shown = { hs: found.hs, curves };
      figure.replaceChildren();
      chart.draw(data(shown));
      figure.dataset.hs = JSON.stringify(found.hs);
      figure.dataset.central = JSON.stringify(curves[0].central);
      figure.dataset.plot = "drawn";
      figure.setAttribute("aria-label", describe(found.hs, curves));
    },
  };
}

/** The curves as uPlot takes them: the hs, then each curve's central and forward errors, zeros
 * left out (a log axis has no 0). */
function data({ hs, curves }) {
  const positive = (values) => values.map((v) => (typeof v === "number" && v > 0 ? v : null));
  return [hs, ...curves.flatMap((curve) => [positive(curve.central), positive(curve.forward)])];
}

/** uPlot's options for `shown` where `el` is: log-log axes, a line per curve and difference. */
function options(el, shown) {
  const errors = data(shown)
    .slice(1)
    .flat()
    .filter((v) => v !== null);
  const [low, high] = [Math.floor(Math.log10(Math.min(...errors))), Math.ceil(Math.log10(Math.max(...errors)))];
  const { fg, grid } = axisColours(el);
  const colours = [css(el, "--mg-pass"), css(el, "--md-accent-fg-color") || css(el, "--mg-fail")];
  return {
    cursor: { show: false },
    legend: { show: true, live: false },
    scales: {
      x: { time: false, distr: 3, dir: -1, range: [1e-12, 1e-1] },
      y: { distr: 3, range: [10 ** low, 10 ** high] },
    },
    axes: [
      // a tick at every power of ten of h (every third on a phone's width)
      { ...logAxis(fg, grid, "h (log scale)"), splits: (u) => decades(-12, -1, u.width < 500 ? 3 : 1) },
      {
        ...logAxis(fg, grid, "relative error (log scale)"),
        splits: () => decades(low, high, high - low > 8 ? 3 : 2),
        size: 60,
      },
    ],
    series: [
      {},
      ...shown.curves.flatMap((curve, i) => [
        { label: `${curve.op} central`, stroke: colours[i % 2], width: 2 },
        { label: `${curve.op} forward`, stroke: colours[i % 2], width: 2, dash: [6, 4] },
      ]),
    ],
  };
}

/** An axis in powers of ten, every tick labelled 1e-5 (uPlot's log filter would drop some). */
function logAxis(fg, grid, label) {
  return {
    stroke: fg,
    grid,
    label,
    filter: (u, splits) => splits,
    values: (u, ticks) => ticks.map(exponent),
  };
}

/** The powers of ten from 10^from to 10^to, a `step`th power apart. */
function decades(from, to, step) {
  return Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => 10 ** (from + i * step));
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
    if (curve.raised) parts.push(h("p", {}, `Your ${curve.op} closure raised: ${curve.raised}.`));
  }
  const kink = found.kink;
  if (kink.raised) parts.push(h("p", {}, `Your relu closure raised: ${kink.raised}.`));
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
