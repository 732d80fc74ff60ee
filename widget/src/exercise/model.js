import { kindOf } from "./kinds.js";

/**
 * The element holding a widget's JSON: a template, because mkdocs-material's instant navigation
 * re-creates every <script> of a new page as a plain, executable one.
 */
export const DATA_SELECTOR = "template[data-exercise-data]";

/**
 * Reads the JSON the MkDocs plugin embeds in a widget (course/widget_data.py writes it and
 * describes every key): `{exercises, designs, timeLimit}`.
 */
export function readModel(root) {
  const carrier = root.querySelector(DATA_SELECTOR);
  if (!carrier) throw new Error("the widget has no JSON data");
  const data = JSON.parse(carrier.content.textContent);
  return {
    exercises: data.exercises,
    designs: data.designs,
    timeLimit: data.time_limit,
  };
}

/**
 * The storage key of an op's code in a design: the closures of micrograd's class keep the keys
 * they always had ("mul"); another design's are its own ("local_grads/mul").
 */
export function codeKey(design, op) {
  return design === "closures" ? op : `${design}/${op}`;
}

/** The key of a tab's code for `op` (its first, unless told): an engine tab's whole engine has
 * its own (every engine tab has the one slot), every other tab its op's (kinds.js `ownKey`;
 * grader/handin.py `exercise_code_key`). */
export const exerciseCodeKey = (exercise, op = exercise.ops[0]) =>
  kindOf(exercise).ownKey?.(exercise) ?? codeKey(exercise.design, op);

/** The address fragment that opens an exercise's tab on its page (widget.js reads it). */
export const tabHash = (exercise) => `#tab-${exercise}`;

/** The exercise id a fragment opens, or null. */
export const hashTab = (hash) => (hash?.startsWith("#tab-") ? decodeURIComponent(hash.slice(5)) : null);
