/**
 * The element holding a widget's JSON: a template, because mkdocs-material's instant navigation
 * re-creates every <script> of a new page as a plain, executable one.
 */
export const DATA_SELECTOR = "template[data-exercise-data]";

const DEFAULT_TIME_LIMIT = 5; // seconds, for data written before the limit was configurable

/**
 * Reads the JSON the MkDocs plugin embeds in a widget:
 *
 *   { "exercises": [ { "id", "label", "slots": [..], "prompt", "hints": [..], "why",
 *                      "stubs": {slot: text}, "solutions": {slot: text}, "test_code", "version" } ],
 *     "scaffold": [ {"text": "..."}, {"slot": "add", "indent": 12}, ... ],
 *     "slot_labels": {"add": "__add__", ...},
 *     "time_limit": 5, "service_worker": true }
 *
 * (course/widget_data.py writes it.) `prompt`, `hints` and `why` are HTML the plugin rendered
 * from the exercise's Markdown; `time_limit` is how many seconds a run may take, `service_worker` whether the site ships
 * widget/isolate.js (both set in mkdocs.yml).
 */
export function readModel(root) {
  const carrier = root.querySelector(DATA_SELECTOR);
  if (!carrier) throw new Error("the widget has no JSON data");
  const data = JSON.parse(carrier.content.textContent);
  const exercises = data.exercises.map((exercise) => ({
    hints: [],
    why: "",
    test_code: "",
    solutions: {},
    ...exercise,
  }));
  return {
    exercises,
    scaffold: data.scaffold,
    slotLabels: data.slot_labels,
    timeLimit: data.time_limit ?? DEFAULT_TIME_LIMIT,
    serviceWorker: Boolean(data.service_worker),
  };
}

/** True for an exercise with a slot of its own (`add`), false for one that runs all slots (`diamond`). */
export function ownsSlot(exercise) {
  return exercise.slots.length === 1 && exercise.slots[0] === exercise.id;
}
