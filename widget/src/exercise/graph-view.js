/**
 * "Show the graph" for a check of a result: the check's computation graph as the lessons draw
 * theirs, laid out at build time (course/check_graphs.py), with the learner's grads written in,
 * wrong ones marked (a dashed border and ✗, not colour alone) with the expected value beside
 * them; and "Step through backward()", which replays the learner's own run: each closure call
 * in the order backward() made it, and each write it made to a grad, before → after.
 *
 * Its text is never drawn smaller than MIN_TEXT_PX: of the two drawings, the one that fits the
 * space at that size is shown, else the narrower one at that size, and it scrolls sideways.
 *
 * Testing contract: the drawn graph is an `svg` whose nodes carry `data-node` (the node's name)
 * and `data-grad-state` ("right", "wrong" or "unchecked"); the step-through has buttons named
 * "Next step" and "Previous step" and a live text of the current step. The figure's
 * `data-layout` says which drawing is shown ("wide" or "narrow").
 */
import { h, uid } from "../shared/dom.js";

const drawings = new Map(); // url -> Promise of the exercise's drawings, fetched once
export const MIN_TEXT_PX = 12; // the smallest a graph's text is drawn: the page's small print

/**
 * Which drawing to show in `space` pixels: `{layout, minWidth: {wide, narrow}}`. Each drawing is
 * `{width, text}` in its own units (its viewBox's width, its text's font size), and is never
 * drawn narrower than `minWidth` (its text MIN_TEXT_PX high). The wide one (left to right) when
 * it fits at that size, else the narrow one (top down), which scrolls sideways if it too is wider.
 */
export function layoutFor(space, wide, narrow) {
  const least = ({ width, text }) => Math.ceil((width * MIN_TEXT_PX) / text);
  const minWidth = { wide: least(wide), narrow: least(narrow) };
  return { layout: space >= minWidth.wide ? "wide" : "narrow", minWidth };
}

/**
 * The button that shows and hides the graph of `result.checks[index]`; `file` names the
 * exercise's drawings in assets/course/graphs/ (null without them), or is a function that draws
 * a check itself (fuzz-drawing.js, for a graph no build has seen).
 */
export function graphButton(file, result, index) {
  if (!file) return null;
  // this bundle is assets/course/widget.js
  const drawn =
    typeof file === "function"
      ? async () => ({ checks: result.checks.map(file) })
      : () => load(new URL(`graphs/${file}`, import.meta.url).href);
  const check = result.checks[index];
  const button = h(
    "button",
    { type: "button", class: "mg-button mg-button--quiet mg-graph-button", "aria-expanded": "false" },
    "Show the graph",
  );
  let row = null;
  const set = (open) => {
    row.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? "Hide the graph" : "Show the graph";
  };
  button.addEventListener("click", async () => {
    if (row) return set(row.hidden);
    button.disabled = true;
    let content;
    try {
      const { checks } = await drawn();
      content = figure(checks[index], check);
    } catch (error) {
      content = h("p", { class: "mg-note" }, `The graph could not be loaded (${error.message}).`);
    }
    row = h("tr", { class: "mg-checks__figure" }, h("td", { colspan: "4" }, content));
    button.closest("tr").after(row);
    button.disabled = false;
    row.id = uid("mg-check-graph");
    button.setAttribute("aria-controls", row.id);
    set(true);
  });
  return button;
}

function load(url) {
  if (!drawings.has(url)) {
    const fetched = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    });
    fetched.catch(() => drawings.delete(url)); // a later click tries again
    drawings.set(url, fetched);
  }
  return drawings.get(url);
}

/** The figure: the graph twice (left to right, and top down), the one that fits shown, and its step-through. */
function figure({ wide, narrow }, check) {
  const canvases = [wide, narrow].map((svg, i) => {
    const canvas = h("div", { class: `mg-graph__canvas mg-graph__canvas--${i ? "narrow" : "wide"}` });
    canvas.innerHTML = svg; // the build's own drawing, from this site
    return canvas;
  });
  const svgs = canvases.map((canvas) => canvas.querySelector("svg"));
  for (const svg of svgs) prepare(svg, check);
  const description = h("p", { class: "mg-visually-hidden" });
  description.textContent = describe(check);
  const stepper = stepThrough(check, (grads, step) => {
    for (const svg of svgs) paint(svg, check, grads, step);
  });
  const el = h(
    "figure",
    { class: "mg-graph mg-graph--check" },
    canvases,
    description,
    h("figcaption", {}, legend(check)),
    stepper,
  );
  fitted(el, svgs);
  return el;
}

/** Shows the drawing that fits `el`'s width at a readable size, again whenever it changes. */
function fitted(el, svgs) {
  const [wide, narrow] = svgs;
  const size = (svg) => ({
    width: svg.viewBox.baseVal?.width || Number.parseFloat(svg.getAttribute("width")),
    text: Math.max(...[...svg.querySelectorAll("text[font-size]")].map((t) => Number(t.getAttribute("font-size"))), 1),
  });
  const [wideSize, narrowSize] = [size(wide), size(narrow)];
  const fit = () => {
    const { layout, minWidth } = layoutFor(el.clientWidth, wideSize, narrowSize);
    el.dataset.layout = layout;
    wide.style.minWidth = `${minWidth.wide}px`;
    narrow.style.minWidth = `${minWidth.narrow}px`;
    // a drawing wider than the page scrolls sideways, with the keyboard too
    for (const canvas of svgs.map((svg) => svg.parentElement)) {
      if (canvas.scrollWidth > canvas.clientWidth) canvas.setAttribute("tabindex", "0");
      else canvas.removeAttribute("tabindex");
    }
  };
  new ResizeObserver(() => el.isConnected && el.clientWidth && fit()).observe(el);
}

/** Names each node, marks its state, and writes the learner's grads in (as backward() left them). */
function prepare(svg, check) {
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `The graph of ${check.built.split("\n").at(-1)}, described below`);
  for (const node of check.nodes) {
    const group = svg.querySelector(`.n${node.id}`);
    if (!group) continue;
    group.dataset.node = node.name;
    group.dataset.gradState = node.state;
    const verdict = group.querySelectorAll("text")[3];
    if (verdict) verdict.textContent = node.state === "wrong" ? `✗ expected ${short(node.expected_text)}` : "✓ right";
  }
  paint(
    svg,
    check,
    check.nodes.map((node) => node.grad_text),
    null,
  );
}

/** Writes `grads` (texts) into the nodes, and marks the step's node and what it wrote to. */
function paint(svg, check, grads, step) {
  const written = new Set((step?.changes ?? []).map((change) => change.node));
  for (const node of check.nodes) {
    const group = svg.querySelector(`.n${node.id}`);
    if (!group) continue;
    group.querySelectorAll("text")[2].textContent = `grad ${short(grads[node.id])}`;
    group.classList.toggle("is-current", step?.node === node.id);
    group.classList.toggle("is-written", written.has(node.id));
    svg.querySelector(`.o${node.id}`)?.classList.toggle("is-current", step?.node === node.id);
  }
}

/** A number as the graph shows it, four decimals as the lessons' graphs do; other text as is. */
function short(text) {
  const number = Number(text);
  if (text === "" || !Number.isFinite(number)) return text;
  const rounded = number.toFixed(4);
  return rounded === "-0.0000" ? "0.0000" : rounded;
}

/** The graph in words, for screen readers: each node, how it was made, its grad and state. */
function describe(check) {
  const parts = check.nodes.map((node) => {
    const made = node.op ? `${node.op} of ${node.inputs.map((i) => check.nodes[i].name).join(" and ")}` : "a leaf";
    const state = { right: ", right", wrong: `, wrong: expected ${short(node.expected_text)}` }[node.state] ?? "";
    return `${node.name} is ${made}, data ${short(node.data_text)}, grad ${short(node.grad_text)}${state}`;
  });
  return `The graph of ${check.built.split("\n").at(-1)}: ${parts.join("; ")}.`;
}

function legend(check) {
  const wrong = check.nodes.filter((node) => node.state === "wrong").map((node) => node.name);
  const said = wrong.length
    ? `Wrong (red, dashed, ✗): ${wrong.join(", ")}, each with the grad it should have; right (green): the other checked grads.`
    : "Every checked grad is right (green).";
  const stepping = check.steps.length
    ? " Stepping through, a thick border marks the node whose closure ran, and a shaded node a grad it wrote."
    : "";
  return `${said} Each node shows its data and the grad your code left in it.${stepping}`;
}

/** `x.grad`, or `(x + y).grad` where the name is an expression: as Python reads it. */
function attribute(name, what) {
  return /^[A-Za-z_]\w*$/.test(name) ? `${name}.${what}` : `(${name}).${what}`;
}

/**
 * "Step through backward()": First, Previous, Next and Last step, and the current step in words
 * (a live region). Step 0 is the graph as backward() began; step k, after the k-th call.
 * `show(grads, step)` draws each.
 */
function stepThrough(check, show) {
  const steps = check.steps;
  const text = h("p", { class: "mg-graph__step", "aria-live": "polite" });
  const buttons = {};
  let at = steps.length;

  const go = (to) => {
    at = Math.max(0, Math.min(steps.length, to));
    const grads = [...check.start];
    for (const step of steps.slice(0, at))
      for (const change of step.changes) if (change.what === "grad") grads[change.node] = change.after_text;
    show(grads, at ? steps[at - 1] : null);
    text.textContent = at ? describeStep(check, steps[at - 1], at, steps.length) : beforeText(check, steps.length);
    buttons.first.setAttribute("aria-disabled", String(at === 0));
    buttons.previous.setAttribute("aria-disabled", String(at === 0));
    buttons.next.setAttribute("aria-disabled", String(at === steps.length));
    buttons.last.setAttribute("aria-disabled", String(at === steps.length));
  };
  const button = (name, to) => {
    const el = h("button", { type: "button", class: "mg-button mg-button--quiet" }, name);
    el.addEventListener("click", () => {
      if (el.getAttribute("aria-disabled") !== "true") go(to());
    });
    return el;
  };
  buttons.first = button("First step", () => 0);
  buttons.previous = button("Previous step", () => at - 1);
  buttons.next = button("Next step", () => at + 1);
  buttons.last = button("Last step", () => steps.length);
  const controls = h("div", { class: "mg-graph__controls", role: "group", "aria-label": "Step through backward()" }, [
    buttons.first,
    buttons.previous,
    buttons.next,
    buttons.last,
  ]);
  const start = h("button", { type: "button", class: "mg-button" }, "Step through backward()");
  const panel = h("div", { class: "mg-graph__stepper", hidden: true }, controls, text);
  start.addEventListener("click", () => {
    start.hidden = true;
    panel.hidden = false;
    go(0);
    buttons.next.focus();
  });
  text.textContent = steps.length ? "" : "Your code raised before backward() called any closure.";
  return h("div", {}, steps.length ? start : null, panel, steps.length ? null : text);
}

/** The step-through's words before its first step: the grads backward() began with, and how
 * many steps follow (the runner keeps a check's first steps only: `steps_dropped`). */
export function beforeText(check, count) {
  const seeded = check.nodes.filter((node) => Number(check.start[node.id]) !== 0);
  const seeds = seeded.map((node) => `${attribute(node.name, "grad")} is ${short(check.start[node.id])}`).join(", ");
  const follow = count === 1 ? "One step follows" : `${count} steps follow`;
  const kept = check.steps_dropped
    ? " Your code made more steps than the step-through keeps: these are its first."
    : "";
  return `Before the first step: ${seeds ? `${seeds}, every other grad 0` : "every grad is 0"}. ${follow}.${kept}`;
}

function describeStep(check, step, at, count) {
  const name = check.nodes[step.node].name;
  const who = step.label === "leaf" ? `${name}, a leaf` : `the ${step.label} closure of ${name}`;
  const nested = step.depth ? " (called from another closure, not by backward())" : "";
  const changes = step.changes.map((change) => {
    const target = attribute(check.nodes[change.node].name, change.what);
    const same = change.before_text === change.after_text;
    const how =
      { added: "added its share", replaced: "replaced what was there" }[change.kind] ??
      (same ? "written, the same number" : "changed");
    return `${target} ${short(change.before_text)} → ${short(change.after_text)} (${how})`;
  });
  const did = changes.length ? changes.join("; ") : "it changed no grad";
  const tuple = step.local_grads_text ? ` Its local gradients: ${step.local_grads_text}.` : "";
  const note = step.note ? ` ${step.note.replaceAll("`", "")}` : "";
  return `Step ${at} of ${count}: ${who} ran${nested}: ${did}.${tuple}${note}`;
}
