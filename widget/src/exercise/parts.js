/**
 * Pieces both kinds of panel share: prompt, hints, "why it works", disclosures, the full class,
 * and the learner's code beside the reference.
 */
import { EditorView } from "@codemirror/view";
import { createViewer, markLines, setText } from "../editor/editor.js";
import { h, uid } from "../shared/dom.js";
import { assemble } from "../shared/scaffold.js";

export function prompt(exercise) {
  return h("div", { class: "mg-prompt", html: exercise.prompt });
}

/** Hints revealed one at a time, each kept once shown: `revealed` of them at first (those the
 * learner revealed before), and `onReveal(count)` after each. The element has `revealNext()`,
 * which the verdict offers too. */
export function hints(exercise, { revealed = 0, onReveal = () => {} } = {}) {
  if (!exercise.hints.length) return null;
  const list = h("ol", { class: "mg-hints__list" });
  const button = h("button", { type: "button", class: "mg-button mg-button--quiet" });
  const reveal = () => {
    const item = h("li", { html: exercise.hints[list.children.length], tabindex: "-1" });
    list.append(item);
    const all = list.children.length === exercise.hints.length;
    button.hidden = all;
    button.textContent = all ? "" : `Show hint ${list.children.length + 1} of ${exercise.hints.length}`;
    return item;
  };
  button.textContent = `Show hint 1 of ${exercise.hints.length}`;
  for (let i = 0; i < Math.min(revealed, exercise.hints.length); i++) reveal();
  const el = h("div", { class: "mg-hints" }, list, button);
  el.revealNext = () => {
    if (list.children.length === exercise.hints.length) return;
    const item = reveal();
    item.focus({ preventScroll: true });
    item.scrollIntoView({ block: "nearest", behavior: "smooth" });
    onReveal(list.children.length);
  };
  el.hintsLeft = () => exercise.hints.length - list.children.length;
  button.addEventListener("click", () => el.revealNext());
  return el;
}

/** "Why it works", shown once the exercise has passed. */
export function why(exercise) {
  const el = h(
    "section",
    { class: "mg-why", hidden: true },
    h("h3", { class: "mg-why__title" }, "Why it works"),
    h("div", { html: exercise.why }),
  );
  return { el, show: (passed) => (el.hidden = !passed || !exercise.why) };
}

/**
 * A button that shows and hides `content`; `onOpen()` runs each time it opens.
 * Returns `{button, content, close()}`.
 */
export function disclosure({ show, hide, content, onOpen }) {
  content.id ||= uid("mg-disclosure");
  content.hidden = true;
  const button = h(
    "button",
    { type: "button", class: "mg-button", "aria-expanded": "false", "aria-controls": content.id },
    show,
  );
  const set = (open) => {
    content.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? hide : show;
    if (open) onOpen?.();
  };
  button.addEventListener("click", () => set(content.hidden));
  return { button, content, close: () => set(false), isOpen: () => !content.hidden };
}

/**
 * "Show full Value class": the design's class as this tab's test runs it, read-only: the
 * learner's current code for the ops the test runs theirs of (`ran`), marked, and in every other
 * op's slot a line saying that the test runs the course's own code there (runner/value_class.py
 * `bodies_to_run`), which is not shown: it is those tabs' answer. `active` is the op tab's own op
 * (null on a graph tab). Returns the disclosure; `refresh()` re-reads the code.
 */
export function fullClass({ model, design, bodies, active, ran }) {
  const frame = h("div", { class: "mg-code mg-fullclass" });
  const { labels } = model.designs[design];
  const caption = h(
    "p",
    { class: "mg-code__caption" },
    active
      ? ["The whole class as this test runs it: your ", h("code", {}, labels[active]), " code, highlighted,"]
      : "The whole class as this test runs it: your code for its ops, highlighted,",
    " and the course's own code for the other ops, not shown.",
  );
  const asRun = () => {
    const all = bodies(design);
    const course = (slot) => `...  # ${labels[slot]}: this test runs the course's own code here`;
    return Object.fromEntries(Object.keys(labels).map((slot) => [slot, ran.includes(slot) ? all[slot] : course(slot)]));
  };
  const content = h("div", { class: "mg-fullclass__wrap" }, caption, frame);
  let view = null;
  const refresh = () => {
    if (content.hidden) return null;
    const { text, lines } = assemble(model.designs[design], asRun());
    if (!view) view = createViewer({ parent: frame, doc: text, label: "The full Value class, read-only" });
    else setText(view, text);
    const marks = [];
    for (const [slot, [first, last]] of Object.entries(lines)) {
      if (!ran.includes(slot)) continue;
      for (let line = first; line <= last; line++) marks.push({ line, className: "mg-line-slot" });
    }
    markLines(view, marks);
    return active ? lines[active] : null;
  };
  const disc = disclosure({
    show: "Show full Value class",
    hide: "Hide full Value class",
    content,
    onOpen: () => {
      const range = refresh();
      if (range) {
        const pos = view.state.doc.line(range[0]).from;
        view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: "center" }) });
      }
    },
  });
  return { ...disc, refresh };
}

/**
 * "Compare with the reference", offered once the learner's code passes: their code beside one
 * correct body, both read-only. `mine()` is their current code.
 */
export function comparison({ mine, reference }) {
  const yours = h("div", { class: "mg-code" });
  const theirs = h("div", { class: "mg-code" });
  const content = h(
    "div",
    { class: "mg-compare" },
    h("figure", {}, h("figcaption", { class: "mg-code__caption" }, "Your code"), yours),
    h("figure", {}, h("figcaption", { class: "mg-code__caption" }, "The reference"), theirs),
  );
  let views = null;
  const refresh = () => {
    if (content.hidden) return;
    if (!views) {
      views = [
        createViewer({ parent: yours, doc: mine().trimEnd(), label: "Your code, read-only" }),
        createViewer({ parent: theirs, doc: reference.trimEnd(), label: "The reference, read-only" }),
      ];
    } else {
      setText(views[0], mine().trimEnd());
    }
  };
  const disc = disclosure({
    show: "Compare with the reference",
    hide: "Hide the comparison",
    content,
    onOpen: refresh,
  });
  disc.button.hidden = true;
  return { ...disc, refresh };
}
