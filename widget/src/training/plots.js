/**
 * The training widget's plots: the loss and the accuracy per step (uPlot), and the decision
 * boundary over the data (a canvas). Colours come from mkdocs-material's variables, read when
 * drawing, so both schemes work; each plot has a text alternative kept up to date.
 */
import uPlot from "uplot";
import { h } from "../page/dom.js";

const css = (name) => getComputedStyle(document.body).getPropertyValue(name).trim();

/** The loss and accuracy curves: `{el, add(step, loss, accuracy), redraw(), last(), reset()}`. */
export function curves() {
  const el = h("div", { class: "mg-train__curves", role: "img" });
  const data = [[], [], []]; // steps, losses, accuracies (%)
  let plot = null;
  const draw = () => {
    plot?.destroy();
    const fg = css("--md-default-fg-color--light");
    const grid = { stroke: css("--md-default-fg-color--lightest"), width: 1 };
    plot = new uPlot(
      {
        width: Math.max(260, el.clientWidth || 320),
        height: 190,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false }, loss: { auto: true }, accuracy: { range: [0, 100] } },
        axes: [
          { stroke: fg, grid, label: "step" },
          { stroke: fg, grid, scale: "loss", label: "loss" },
          { stroke: fg, grid: { show: false }, scale: "accuracy", side: 1, label: "accuracy %" },
        ],
        series: [
          {},
          { label: "loss", scale: "loss", stroke: css("--md-primary-fg-color"), width: 2 },
          { label: "accuracy", scale: "accuracy", stroke: css("--mg-pass"), width: 2, dash: [6, 3] },
        ],
      },
      data,
      el,
    );
  };
  const describe = () => {
    const n = data[0].length;
    if (!n) return "No steps yet.";
    const first = data[1].find((loss) => loss !== null);
    const last = data[1].at(-1);
    const loss = last === null ? "not a number" : last.toFixed(4);
    return `Loss per step (solid) and training accuracy (dashed): over ${n} steps the loss went from ${first?.toFixed(4)} to ${loss}, the accuracy to ${Math.round(data[2].at(-1))}%.`;
  };
  return {
    el,
    add(step, loss, accuracy) {
      data[0].push(step);
      data[1].push(loss);
      data[2].push(accuracy === null ? null : accuracy * 100);
    },
    redraw() {
      if (!plot) draw();
      else plot.setData(data);
      el.setAttribute("aria-label", describe());
    },
    restyle: () => plot && draw(),
    /** The last loss, as the stats line shows it ("" before any, or when not a number). */
    last: () => (data[1].length && data[1].at(-1) !== null ? data[1].at(-1).toFixed(4) : ""),
    reset() {
      for (const series of data) series.length = 0;
      plot?.setData(data);
      el.setAttribute("aria-label", describe());
    },
  };
}

/** The data and the model's decision regions: `{el, show(state), clear()}`. */
export function boundary() {
  const canvas = h("canvas", { class: "mg-train__boundary", width: "300", height: "300", role: "img" });
  let last = null;
  const draw = ({ points, labels, extent, scores, accuracy }) => {
    const context = canvas.getContext("2d");
    const { width, height } = canvas;
    const [x0, x1, y0, y1] = extent;
    context.clearRect(0, 0, width, height);
    if (scores) {
      const size = Math.round(Math.sqrt(scores.length));
      const cell = [width / size, height / size];
      const colour = [css("--md-primary-fg-color"), css("--md-accent-fg-color")];
      scores.forEach((score, i) => {
        context.globalAlpha = score === null ? 0 : Math.min(0.35, 0.12 + Math.abs(score) * 0.12);
        context.fillStyle = colour[score > 0 ? 1 : 0];
        context.fillRect((i % size) * cell[0], Math.floor(i / size) * cell[1], cell[0] + 0.5, cell[1] + 0.5);
      });
    }
    context.globalAlpha = 1;
    context.lineWidth = 2;
    points.forEach(([x, y], i) => {
      const [px, py] = [((x - x0) / (x1 - x0)) * width, ((y1 - y) / (y1 - y0)) * height];
      // one class a circle, the other a cross: shape, not colour alone
      context.strokeStyle = labels[i] > 0 ? css("--md-accent-fg-color") : css("--md-primary-fg-color");
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
    const right = Math.round(accuracy * points.length);
    canvas.setAttribute(
      "aria-label",
      `The two moons, ${points.length} points (circles one class, crosses the other) over the regions the model gives each class: it classifies ${right} of them right (${Math.round(accuracy * 100)}%).`,
    );
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
