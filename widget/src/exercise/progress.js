/**
 * A tab's progress, as the op, graph and training widgets all read it: whether the learner has
 * tried it, and the code that last passed (kept in storage, per exercise and version).
 */
import { store } from "../page/storage.js";

/** The progress of `exercise` ({id, version}); `code` is whatever the tab sends to a run. */
export function tabProgress({ id, version }) {
  let progress = store.progress(id, version);
  const save = (next) => {
    progress = next;
    store.setProgress(id, version, progress);
  };
  return {
    get attempted() {
      return progress.attempted;
    },
    /** How many of the tab's hints have been shown, in any visit. */
    get hints() {
      return progress.hints;
    },
    reveal: (count) => save({ ...progress, hints: Math.max(progress.hints, count) }),
    /** "passed" when `code` is what passed, "changed" when other code passed, else "". */
    state(code) {
      if (progress.passedWith === null) return "";
      return progress.passedWith === code ? "passed" : "changed";
    },
    /** A run of code other than the starter code has begun. */
    attempt: () => save({ ...progress, attempted: true }),
    /** A run of `code` ended with `verdict`: kept with its time, for "Download my work". */
    record: (code, verdict) =>
      save({
        ...progress,
        passedWith: verdict === "pass" ? code : null,
        solved: progress.solved || verdict === "pass",
        verdict,
        at: new Date().toISOString(),
      }),
  };
}
