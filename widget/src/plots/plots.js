/**
 * The training widget's plots: the loss and the accuracy per step (uPlot), and the decision
 * boundary over the data (a canvas). Colours come from mkdocs-material's variables, read when
 * drawing, so both schemes work; each plot has a text alternative kept up to date.
 */
import "./locale.js"; // first: uPlot reads the language as it loads
import uPlot from "uplot";
import { h } from "../shared/dom.js";
import { compact, compactTicks } from "./ticks.js";

/** A loss as the figures say it: four decimals, or compact once it has blown up. */
const loss = (value) => (Math.abs(value) >= 1e4 ? compact(value) : value.toFixed(4));

/** A CSS variable's value where `el` is (the widget sets the course's own). */
export const css = (el, name) => getComputedStyle(el).getPropertyValue(name).trim();

/** The axes' colours where `el` is: `{fg, grid}`. */
export const axisColours = (el) => ({
  fg: css(el, "--md-default-fg-color--light"),
  grid: { stroke: css(el, "--md-default-fg-color--lightest"), width: 1 },
});

/** Calls `restyle()` each time the reader switches the colour scheme (mkdocs-material's
 * `data-md-color-scheme` on the body), so that a plot takes the new scheme's colours; once
 * `el` has left the page (instant navigation), it stops watching. */
export function followScheme(el, restyle) {
  const observer = new MutationObserver(() => (el.isConnected ? restyle() : observer.disconnect()));
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
}

/** `[r, g, b]` of any CSS colour, as the browser parses it. */
function rgb(colour) {
  const context = new OffscreenCanvas(1, 1).getContext("2d");
  context.fillStyle = colour;
  context.fillRect(0, 0, 1, 1);
  return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
}

/**
 * A uPlot chart in `el` that keeps to its box's width (a phone turned, a window resized):
 * `{draw(data), update(data), drawn(), clear()}`. `draw` builds it afresh from `options(el)`
 * (uPlot's scales, axes, series and the like: everything but its size), read anew each time so
 * that a chart drawn again takes the colour scheme's colours; `update` gives it new data alone.
 */
export function fittedPlot(el, height, options) {
  let plot = null;
  const width = () => Math.max(260, el.clientWidth || 320);
  new ResizeObserver(() => plot && plot.width !== width() && plot.setSize({ width: width(), height })).observe(el);
  return {
    draw(data) {
      plot?.destroy();
      plot = new uPlot({ width: width(), height, ...options(el) }, data, el);
    },
    update: (data) => plot?.setData(data),
    drawn: () => plot !== null,
    clear() {
      plot?.destroy();
      plot = null;
    },
  };
}

/**
 * A uPlot chart of series per step that keeps to its box's width and redraws in the colour
 * scheme's colours: `{el, data, redraw(), restyle(), reset()}`. `options(el)` gives uPlot's
 * scales, axes and series; `describe()`, the text alternative of what `data` holds.
 */
function stepPlot(height, options, describe) {
  const el = h("div", { class: "mg-train__curves", role: "img" });
  const data = [];
  const chart = fittedPlot(el, height, (el) => ({ legend: { show: false }, cursor: { show: false }, ...options(el) }));
  const label = () => el.setAttribute("aria-label", describe());
  return {
    el,
    data,
    redraw() {
      if (!chart.drawn()) chart.draw(data);
      else chart.update(data);
      label();
    },
    restyle: () => chart.drawn() && chart.draw(data),
    reset() {
      for (const series of data) series.length = 0;
      chart.update(data);
      label();
    },
  };
}

/** The loss and accuracy curves: `{el, add(step, loss, accuracy), redraw(), last(), reset()}`. */
export function curves() {
  const options = (el) => {
    const { fg, grid } = axisColours(el);
    return {
      // a log scale: a loss that falls a hundredfold or blows up stays readable
      scales: { x: { time: false }, loss: { distr: 3 }, accuracy: { range: [0, 100] } },
      axes: [
        { stroke: fg, grid, label: "step" },
        { stroke: fg, grid, scale: "loss", label: "loss (log scale)", values: compactTicks, size: 56 },
        { stroke: fg, grid: { show: false }, scale: "accuracy", side: 1, label: "accuracy %" },
      ],
      series: [
        {},
        { label: "loss", scale: "loss", stroke: css(el, "--mg-class-a"), width: 2 },
        { label: "accuracy", scale: "accuracy", stroke: css(el, "--mg-pass"), width: 2, dash: [6, 3] },
      ],
    };
  };
  const describe = () => {
    const n = data[0].length;
    if (!n) return "No steps yet.";
    const first = data[1].find((loss) => loss !== null);
    const last = data[1].at(-1);
    const loss = last === null ? "not a number" : last.toFixed(4);
    return `Loss per step (solid) and training accuracy (dashed): over ${n} steps the loss went from ${first?.toFixed(4)} to ${loss}, the accuracy to ${Math.round(data[2].at(-1))}%.`;
  };
  const plot = stepPlot(190, options, describe);
  const data = plot.data;
  data.push([], [], []); // steps, losses, accuracies (%)
  return {
    ...plot,
    add(step, loss, accuracy) {
      data[0].push(step);
      data[1].push(loss);
      data[2].push(accuracy === null ? null : accuracy * 100);
    },
    /** The last loss, as the stats line shows it ("" before any, or when not a number). */
    last: () => (data[1].length && data[1].at(-1) !== null ? loss(data[1].at(-1)) : ""),
  };
}

/**
 * The data and the model's decision regions: `{el, show(state), clear()}`; a state without
 * `scores` draws the points alone.
 */
export function boundary() {
  const canvas = h("canvas", { class: "mg-train__boundary", width: "300", height: "300", role: "img" });
  let last = null;
  const draw = ({ points, labels, extent, scores, accuracy }) => {
    const context = canvas.getContext("2d");
    context.clearRect(0, 0, canvas.width, canvas.height);
    const colour = [css(canvas, "--mg-class-a"), css(canvas, "--mg-class-b")];
    if (scores) shadeRegions(context, scores, colour);
    drawPoints(context, points, labels, extent, colour);
    canvas.setAttribute("aria-label", boundaryLabel(points.length, Boolean(scores), accuracy));
  };
  return {
    el: canvas,
    show(state) {
      last = state;
      draw(state);
    },
    restyle: () => last && draw(last),
    clear() {
      last = null;
      canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
      canvas.setAttribute("aria-label", "No model yet.");
    },
  };
}

/** The regions the model gives each class, in their `colour`s: one pixel per grid cell of
 * `scores`, scaled up to the canvas smoothly, so that the regions shade into each other. */
function shadeRegions(context, scores, colour) {
  const size = Math.round(Math.sqrt(scores.length));
  const grid = new OffscreenCanvas(size, size);
  const pixels = new ImageData(size, size);
  const tones = colour.map(rgb);
  scores.forEach((score, i) => {
    const tone = tones[score > 0 ? 1 : 0];
    const alpha = score === null ? 0 : Math.min(0.4, 0.1 + Math.abs(score) * 0.15);
    pixels.data.set([...tone, Math.round(alpha * 255)], i * 4);
  });
  grid.getContext("2d").putImageData(pixels, 0, 0);
  context.imageSmoothingEnabled = true;
  context.drawImage(grid, 0, 0, context.canvas.width, context.canvas.height);
}

/** The data's points where they lie in `extent` ([x0, x1, y0, y1]): one class a circle, the
 * other a cross (shape, not colour alone). */
function drawPoints(context, points, labels, [x0, x1, y0, y1], colour) {
  const { width, height } = context.canvas;
  context.lineWidth = 2;
  points.forEach(([x, y], i) => {
    const [px, py] = [((x - x0) / (x1 - x0)) * width, ((y1 - y) / (y1 - y0)) * height];
    context.strokeStyle = colour[labels[i] > 0 ? 1 : 0];
    context.beginPath();
    if (labels[i] > 0) {
      context.moveTo(px - 4, py - 4);
      context.lineTo(px + 4, py + 4);
      context.moveTo(px + 4, py - 4);
      context.lineTo(px - 4, py + 4);
    } else {
      context.arc(px, py, 4, 0, 2 * Math.PI);
    }
    context.stroke();
  });
}

/** The boundary's text alternative for `count` points, with or without the model's regions. */
function boundaryLabel(count, shaded, accuracy) {
  const moons = `The two moons, ${count} points (crosses labelled +1, circles −1)`;
  if (!shaded) return `${moons}. No model yet: training shades the region it gives each class.`;
  const right = Math.round(accuracy * count);
  return `${moons} over the regions the model gives each class: it classifies ${right} of them right (${Math.round(accuracy * 100)}%).`;
}

/**
 * microgpt's loss per step: each name's (faint), their moving average (solid), and a uniform
 * guess's (dashed, flat): `{el, add(step, loss, smoothed), redraw(), reset(), restyle()}`.
 */
export function lossCurves(uniform) {
  const options = (el) => {
    const { fg, grid } = axisColours(el);
    const line = css(el, "--mg-class-a");
    return {
      scales: { x: { time: false }, y: { distr: 3 } },
      axes: [
        { stroke: fg, grid, label: "step" },
        { stroke: fg, grid, label: "loss (log scale)", values: compactTicks, size: 56 },
      ],
      series: [
        {},
        { label: "loss", stroke: `rgba(${rgb(line).join(",")}, 0.3)`, width: 1 },
        { label: "smoothed", stroke: line, width: 2 },
        { label: "uniform guess", stroke: css(el, "--mg-class-b"), width: 1.5, dash: [6, 4] },
      ],
    };
  };
  const describe = () => {
    const n = data[0].length;
    const guess = `a uniform guess among the letters scores ${uniform.toFixed(2)}`;
    if (!n) return `No steps yet; ${guess}.`;
    const first = data[2].find((value) => value !== null);
    const last = data[2].findLast((value) => value !== null);
    return `Loss per step, smoothed: over ${n} steps it went from ${loss(first)} to ${loss(last)}; ${guess}.`;
  };
  const plot = stepPlot(220, options, describe);
  const data = plot.data;
  data.push([], [], [], []); // steps, losses, smoothed losses, the uniform guess
  return {
    ...plot,
    add(step, value, smoothed) {
      data[0].push(step);
      data[1].push(value);
      data[2].push(smoothed);
      data[3].push(uniform);
    },
  };
}
