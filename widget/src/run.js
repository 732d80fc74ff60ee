/** Runs one exercise in the page's Python and shows the outcome; a newer run supersedes an older one. */
import { python } from "./python.js";

/** Returns `run(bodies)`, which resolves with the result, or null when superseded or Python failed. */
export function createRunner({ exercise, result }) {
  let latest = 0;
  return async function run(bodies) {
    const token = ++latest;
    result.running(python.status.state !== "ready");
    try {
      const outcome = await python.grade(exercise.id, bodies);
      if (token !== latest) return null;
      result.show(outcome);
      return outcome;
    } catch (error) {
      if (token === latest) result.failed(error.message);
      return null;
    }
  };
}
