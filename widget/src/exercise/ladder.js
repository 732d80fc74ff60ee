/**
 * The disclosure ladder (grader/disclosure.py): a tab's learner climbs from its question
 * through its hints, the last of which is the formula rung. The verdict says an op's rule only
 * from there on, or once the tab has passed (its solution is offered only at that rung).
 * Below it, the grader gives numbers, the chain rule's bookkeeping and where to measure.
 */
import { kindOf } from "./kinds.js";

/** Whether a tab's learner has reached its formula rung (`progress`: shared/storage.js's record). */
export function formulaReached(exercise, progress) {
  return progress.hints >= exercise.hints.length || Boolean(progress.solved);
}

/**
 * The ops whose rule the verdict on `exercise` may say: an op tab's own op once it reached its
 * formula rung (a checker tab's, its one slot); on a graph tab, each op whose own tab (among `exercises`) has.
 * `progressOf(exercise)` reads a tab's progress.
 */
export function toldOps(exercise, exercises, progressOf) {
  // an op or checker tab's own slot; a graph tab's ops, each on its own tab
  const tabs = kindOf(exercise).ownCode ? [exercise] : exercises.filter((e) => ownTab(e, exercise));
  return tabs.filter((tab) => formulaReached(tab, progressOf(tab))).map((tab) => tab.ops[0]);
}

const ownTab = (tab, graph) => kindOf(tab).opTab && tab.design === graph.design && graph.ops.includes(tab.ops[0]);
