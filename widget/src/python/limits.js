/**
 * What the page takes from a runner: a message larger than this did not come from the runner's
 * own capped report (runner/sandbox.py `CappedOutput` caps what learner code prints), so the page
 * ends that runner instead of parsing it. Both the scheduler's runs (scheduler.js) and its fuzz
 * sessions (scheduler-fuzz.js) hold their runners to it.
 */
export const MAX_OBSERVATION = 4_000_000;
