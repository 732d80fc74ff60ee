/**
 * What a runner's global scope loses before any learner code runs in it. Learner code can reach
 * JavaScript from Python however its names are hidden (Pyodide's C module made anew, its
 * objects found through `gc`), so the wall is here: this worker keeps nothing that outlives it or
 * reaches another of the course's pages (storage, caches, channels, workers of its own). Fetching
 * stays: the trimmed standard library fetches the rest of itself (bytecode/fallback.py), and the
 * site's CSP keeps every request on its origin.
 */
export const CUT_OFF = [
  "caches", // the offline copy the service worker serves (isolate.js)
  "indexedDB", // the saved memory snapshots
  "BroadcastChannel", // what the course's tabs tell each other (shared/erased.js)
  "Worker", // a worker of its own would start with all of the above
  "SharedWorker",
  "importScripts",
];
const NAVIGATOR_CUT_OFF = ["storage", "locks"]; // the origin's private file system; tabs' locks

/** Deletes each of `names` from `scope` and every prototype it inherits them from. */
export function cutOff(scope = self, navigator = self.navigator) {
  forget(scope, CUT_OFF);
  if (navigator) forget(navigator, NAVIGATOR_CUT_OFF);
}

function forget(object, names) {
  for (const name of names) {
    for (let at = object; at; at = Object.getPrototypeOf(at)) {
      Reflect.deleteProperty(at, name); // false for one that cannot be: said below
    }
    if (name in object) throw new Error(`a runner could not be cut off from ${name}`);
  }
}
