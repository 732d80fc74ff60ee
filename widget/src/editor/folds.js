/**
 * Spoiler folds: a whole engine (find the bug) holds every op's finished closure, and an op
 * whose tab the learner has not passed would have its derivative handed over there. Each such
 * closure's body is folded, marked as a spoiler; a click (or Ctrl-Alt-]) opens it. Folding
 * hides lines from view only: the code that runs is the editor's whole text.
 */
import { codeFolding, foldEffect, foldKeymap } from "@codemirror/language";
import { keymap } from "@codemirror/view";

export const SPOILER = "A spoiler: the closure of an op whose tab you have not passed yet. Open it";

/** The editor's folding, with the spoiler's placeholder. */
export const folding = [
  codeFolding({
    placeholderDOM(view, onclick) {
      // a span, as CodeMirror's own placeholder: a button inside the editor's textbox would be
      // a control inside a control; the keys open it too (Ctrl-Alt-])
      const mark = document.createElement("span");
      mark.className = "cm-foldPlaceholder mg-spoiler";
      mark.textContent = "… spoiler: open";
      mark.title = SPOILER;
      mark.addEventListener("click", onclick);
      return mark;
    },
  }),
  keymap.of(foldKeymap),
];

/**
 * The body of each `_backward` closure of `text`, a whole Value class, as `{method, from, to}`:
 * `method` the method that defines it (`__add__`, `tanh`), `from` the end of its `def` line and
 * `to` the end of its last line, as offsets into `text`.
 */
export function closureBodies(text) {
  const lines = text.split("\n");
  const starts = [];
  lines.reduce((offset, line) => (starts.push(offset), offset + line.length + 1), 0);
  const found = [];
  let method = null;
  lines.forEach((line, i) => {
    method = /^ {4}def (\w+)\(/.exec(line)?.[1] ?? method;
    const def = /^( +)def _backward\(\):\s*$/.exec(line);
    if (!def || !method) return;
    let last = i;
    for (let j = i + 1; j < lines.length; j++) {
      if (!lines[j].trim()) continue;
      if (!lines[j].startsWith(`${def[1]} `)) break; // back at the def's own indent: the body ended
      last = j;
    }
    if (last > i) found.push({ method, from: starts[i] + line.length, to: starts[last] + lines[last].length });
  });
  return found;
}

/** Folds, in `view`, the closures of the methods `methods` names (a Set of method names). */
export function foldClosures(view, methods) {
  const effects = closureBodies(view.state.doc.toString())
    .filter(({ method }) => methods.has(method))
    .map(({ from, to }) => foldEffect.of({ from, to }));
  if (effects.length) view.dispatch({ effects });
}
