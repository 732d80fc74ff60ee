/**
 * "Show the fix" of a find-the-bug tab: the way out once every hint is shown to a learner who
 * has run the engine. The fix as a diff (grader/bug_diff.py `hunks`, built with the page): each
 * place with the class and functions it is in, the lines around it, the lines as shipped marked
 * − and the fixed ones +, in words for a screen reader too. A long line wraps, its wrapped part
 * under its own indentation.
 */
import { h } from "../shared/dom.js";
import { disclosure } from "./parts.js";

const MARKS = {
  " ": { tag: "span", kind: "same", sign: " ", said: "" },
  "-": { tag: "del", kind: "removed", sign: "−", said: "Remove: " },
  "+": { tag: "ins", kind: "added", sign: "+", said: "Add: " },
};

/** The disclosure of the exercise's `fix`, or null where the page has none (`solutions:
 * false`). Returns `{button, content, close(), offer()}`: `offer()` shows the button once
 * `progress` (progress.js) has a run and every hint, and hides it before. */
export function fixPart(exercise, progress) {
  const { fix, hints } = exercise;
  if (!fix?.length) return null;
  const caption = h(
    "p",
    { class: "mg-code__caption", tabindex: "-1" },
    "The fix: lines marked − are the engine as shipped, lines marked + the fixed ones, and the lines around them stay as they are.",
  );
  const part = disclosure({
    show: "Show the fix",
    hide: "Hide the fix",
    content: h("div", { class: "mg-fix" }, caption, ...fix.map(place)),
    onOpen: () => {
      caption.scrollIntoView({ block: "nearest", behavior: "smooth" });
      caption.focus({ preventScroll: true });
    },
  });
  const offer = () => (part.button.hidden = !(progress.attempted && progress.hints >= hints.length));
  offer();
  return { ...part, offer };
}

/** A place of the fix, its lines moved left by the indentation they all share. */
function place({ where, lines }) {
  const shared = Math.min(...lines.filter(([, text]) => text.trim()).map(([, text]) => indentation(text)));
  return h(
    "div",
    { class: "mg-code mg-fix__place" },
    h("div", { class: "mg-code__bar" }, h("span", {}, "In ", h("code", {}, where))),
    h("div", { class: "mg-fix__lines" }, ...lines.map(([mark, text]) => line(mark, text.slice(shared)))),
  );
}

const indentation = (text) => text.length - text.trimStart().length;

function line(mark, text) {
  const { tag, kind, sign, said } = MARKS[mark];
  const el = h(
    tag,
    { class: `mg-fix__line mg-fix__line--${kind}` },
    h("span", { class: "mg-fix__mark", "aria-hidden": "true" }, `${sign} `),
    said ? h("span", { class: "mg-visually-hidden" }, said) : "",
    text,
  );
  // the mark and the line's own indentation: where a wrapped part of the line starts
  el.style.setProperty("--indent", `${2 + indentation(text)}ch`);
  return el;
}
