/**
 * What a certificate claims, made true: each pass it claims comes with the code that passed, not
 * with an edit made since (the verify page and `python -m grader verify` run the file's code, and
 * would find the edit). Pure, tested in Node.
 */
import { kindOf } from "../exercise/kinds.js";
import { exerciseCodeKey } from "../exercise/model.js";

/** The code a passing run of `exercise` sent, as `{codeKey: text}`, from its progress record's
 * `passedWith` (exercise/progress.js): a tab with code of its own sent its one slot's text; one
 * without (a graph tab) the JSON of its ops' code. Null when it cannot be read. */
export function passedCode(exercise, passedWith) {
  if (typeof passedWith !== "string") return null;
  if (kindOf(exercise).ownCode) return { [exerciseCodeKey(exercise)]: passedWith };
  let bodies;
  try {
    bodies = JSON.parse(passedWith);
  } catch {
    return null;
  }
  const texts = exercise.ops.map((op) => [exerciseCodeKey(exercise, op), bodies?.[op]]);
  return texts.every(([, text]) => typeof text === "string") ? Object.fromEntries(texts) : null;
}

/**
 * The work a certificate holds, from `saved` (shared/storage.js `saved()`) and the course's
 * `exercises`: every claimed pass's code put back in its slots (the latest pass wins a slot two
 * passes share), and a pass no longer claimed whose code is not what the file holds, or that
 * was of another version of the exercise than the course's (the progress page does not count it). Returns
 * `{code, versions, progress, claimed}`, `claimed` the ids whose pass the file claims.
 */
export function certifiedWork({ code, versions, progress }, exercises) {
  const byId = new Map(exercises.map((exercise) => [exercise.id, exercise]));
  const passes = Object.entries(progress)
    .filter(([, record]) => record?.verdict === "pass")
    .map(([id, record]) => {
      const exercise = byId.get(id);
      const current = exercise !== undefined && record.version === exercise.version;
      return { id, record, ran: current ? passedCode(exercise, record.passedWith) : null };
    })
    .sort((a, b) => String(a.record.at).localeCompare(String(b.record.at)));
  const held = { ...code };
  for (const { ran } of passes) Object.assign(held, ran);
  const holds = ({ ran }) => ran !== null && Object.entries(ran).every(([key, text]) => held[key] === text);
  const kept = { ...progress };
  for (const pass of passes.filter((pass) => !holds(pass))) kept[pass.id] = { ...pass.record, verdict: null };
  const claimed = passes.filter(holds).map((pass) => pass.id);
  return { code: held, versions, progress: kept, claimed };
}
