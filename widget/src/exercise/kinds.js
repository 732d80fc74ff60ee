/**
 * The kinds of exercise the widget knows (an exercise's `kind`, as course/widget_data.py writes
 * it), and what the widget must know of each: the one place that tells kinds apart, so that
 * every other module asks here instead of comparing a kind's name. Pure: no DOM.
 *
 * - `panel`: the panel that shows a tab of the kind (widget.js mounts it): "op" (an editor of
 *   one slot and its tool: op-panel.js, whose two variants are the op and the checker kinds),
 *   "graph" (graph-panel.js) or "engine" (engine-panel.js).
 * - `ownCode`: whether the tab has code of its own, in an editor, kept under its code key. A
 *   graph tab has none: it runs the code of its ops' own tabs.
 * - `opTab`: whether the tab is its op's own tab: the one a link to the op opens, and whose
 *   disclosure says the op's rule on graph tabs too (ladder.js).
 * - `ownKey(exercise)`: the storage key of a tab whose code is one whole, not its ops' codes
 *   (grader/handin.py `exercise_code_key`); null where the tab's code is kept under its op's key.
 */
export const KINDS = {
  // one op's code (`Value.__mul__`'s closure)
  op: { panel: "op", ownCode: true, opTab: true, ownKey: null },
  // a gradient checker's three functions, in one slot
  checker: { panel: "op", ownCode: true, opTab: false, ownKey: null },
  // whole graphs, run on the code of the op tabs of its design
  graph: { panel: "graph", ownCode: false, opTab: false, ownKey: null },
  // find the bug: a whole engine with one planted bug, in one slot
  engine: { panel: "engine", ownCode: true, opTab: false, ownKey: (exercise) => `engine/${exercise.id}` },
};

/** The kind of `exercise` ({kind}), from KINDS; a kind the widget does not know is an error. */
export function kindOf(exercise) {
  const kind = Object.hasOwn(KINDS, exercise.kind) ? KINDS[exercise.kind] : null;
  if (!kind) throw new Error(`the widget knows no exercise kind ${JSON.stringify(exercise.kind)}`);
  return kind;
}
