/**
 * A worker's warm-up while the page asks nothing of it. V8 runs WebAssembly on baseline code
 * first and optimizes a function only once it has run enough: on a first visit, the first run
 * took ~120 ms where later ones took ~40, even after the learner had read for seconds.
 * Calling the role's grading on course code meanwhile (load-python.js `warmUp`) gets Python's
 * hot functions optimized before the learner's first Run.
 */

// not before the page has been quiet this long: runs pressed back to back keep the judge busy
export const QUIET_MS = 500;
// at most this many calls; fewer once this many in a row are no faster than the best
export const MOST_CALLS = 30;
export const NO_FASTER = 5;

/**
 * Calls `warmUp()` one call a task (`later(then, ms)`, setTimeout) while `lastRequest()` (the
 * time of the page's latest request, or null) is at least QUIET_MS old, until the calls stop
 * getting faster. With `untilFirstRequest` (a runner: learner code runs from its first request
 * on), it stops for good at the first request. A request waits for one call at most; a call
 * that fails ends the warm-up (the worker's own work reports its errors). `warm()` is called
 * once the calls stop (no faster, or MOST_CALLS made).
 */
export function warmWhileIdle(
  warmUp,
  { lastRequest, untilFirstRequest, warm = () => {}, now = () => performance.now(), later = setTimeout },
) {
  const since = now();
  let best = Infinity;
  let noFaster = 0;
  let calls = 0;
  const next = () => {
    const heard = lastRequest();
    if (untilFirstRequest && heard !== null) return;
    const quiet = now() - (heard ?? since);
    if (quiet < QUIET_MS) return void later(next, QUIET_MS - quiet);
    const start = now();
    try {
      warmUp();
    } catch {
      return;
    }
    const ms = now() - start;
    noFaster = ms < best * 0.9 ? 0 : noFaster + 1;
    best = Math.min(best, ms);
    if (++calls < MOST_CALLS && noFaster < NO_FASTER) later(next, 0);
    else warm();
  };
  later(next, QUIET_MS);
}
