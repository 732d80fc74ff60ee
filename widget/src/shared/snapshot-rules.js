/**
 * The rules of Python's memory snapshots, in one place and pure (Node tests:
 * tests/widget/snapshot-rules.test.mjs): which memory a worker restores, which it makes, and
 * which of those the page saves and hands on. The workers (worker/load-python.js,
 * worker/main.js) and the page (python/scheduler.js, python/python.js, python/load-ahead.js)
 * ask here. What a snapshot is: worker/snapshot.js; where it is kept: snapshot-store.js, and
 * its digest python/snapshot-digest.js.
 *
 * A memory is named for the role that made it: "runner" (a runner started from scratch, before
 * it ran anything) or "judge" (a warm judge, before it judged anything). Learner code runs in
 * runners only, and once a runner is ready it may be running some: nothing it sends after that
 * is taken.
 */

/** The saved memories a worker of `role` may restore, its own first: a judge without one of
 * its own restores a runner's and imports the grader on top. */
export function savedMemories(role) {
  return role === "judge" ? ["judge", "runner"] : ["runner"];
}

/**
 * The memories a worker of `role` tries, in order, each `{memory, from}`: the Blob the page
 * handed over (`from: "handed"`: a runner's, taken before it ran anything, and a Blob cannot
 * change, so it is not checked), else the saved ones (`"saved"`: restored only if their SHA-256
 * is the digest the page keeps). None with snapshots off.
 */
export function memoriesToTry(role, { snapshots, handed }) {
  if (!snapshots) return [];
  if (handed) return [{ memory: "runner", from: "handed" }];
  return savedMemories(role).map((memory) => ({ memory, from: "saved" }));
}

/**
 * What a worker that `restored` a memory (its name, or null when started from scratch) makes
 * of its own: "now" (a runner from scratch, packed before anything runs in it), "when-warm" (a
 * judge without a memory of its own, packed once it is warm and left alone), or null.
 */
export function memoryToMake(role, restored, { snapshots }) {
  if (!snapshots) return null;
  if (role === "runner") return restored ? null : "now";
  return restored === "judge" ? null : "when-warm";
}

/**
 * The role whose saved memory a worker's snapshot message becomes, or null: `from` is the
 * worker ("spare", "judge" or anything else), `ready` and `asked` what the page knows of it,
 * `digest` the memory's (none: the worker made none). A runner's only from the spare before it
 * is ready (it sends it first); the judge's only once ready and if never asked.
 */
export function snapshotToSave({ from, ready, asked, digest }) {
  if (!digest) return null;
  if (from === "spare" && !ready) return "runner";
  if (from === "judge" && ready && !asked) return "judge";
  return null;
}

/** What the page hands a new worker of `role` to restore: the runner's memory it holds (a
 * Blob, or null) to a runner; nothing to a judge, which reads its own. (A judge loading ahead,
 * which has none yet, is handed the runner's just made: python/load-ahead.js.) */
export function memoryToHand(role, held) {
  return role === "runner" ? held : null;
}
