/**
 * A tab's progress, as the op, graph and training widgets all read it: whether the learner has
 * tried it, and the code that last passed (kept in storage, per exercise and version). Read from
 * the store each time: another browser tab may have run it since.
 */
import { store } from "../shared/storage.js";

/** The event a tab's recorded run dispatches on document (the header's count listens,
 * record/indicator.js). */
export const RECORDED = "mg-progress-recorded";

/** The progress of `exercise` ({id, version}); `code` is whatever the tab sends to a run. */
export function tabProgress({ id, version }) {
  const progress = () => store.progress(id, version);
  const save = (changes) => store.setProgress(id, version, { ...progress(), ...changes });
  return {
    get attempted() {
      return progress().attempted;
    },
    /** How many of the tab's hints have been shown, in any visit. */
    get hints() {
      return progress().hints;
    },
    reveal: (count) => save({ hints: Math.max(progress().hints, count) }),
    /** "passed" when `code` is what passed, "changed" when other code passed, else "". */
    state(code) {
      const { passedWith } = progress();
      if (passedWith === null) return "";
      return passedWith === code ? "passed" : "changed";
    },
    /** A run of code other than the starter code has begun. */
    attempt: () => save({ attempted: true }),
    /** A run of `code` ended with `verdict`: kept with its time, for "Download my work", and
     * the first pass's time, for the progress page. */
    record: (code, verdict) => {
      const [before, at] = [progress(), new Date().toISOString()];
      const passedAt = before.passedAt ?? (verdict === "pass" ? at : null);
      save({
        passedWith: verdict === "pass" ? code : null,
        solved: before.solved || verdict === "pass",
        verdict,
        at,
        passedAt,
      });
      document.dispatchEvent(new Event(RECORDED)); // the header's count (record/indicator.js)
    },
  };
}
