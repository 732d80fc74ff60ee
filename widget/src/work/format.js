/**
 * The learner's work as one small JSON file, "Download my work" writes and "Load work" reads
 * (grader/handin.py reads the same format for `python -m grader regrade`; HOSTING.md documents
 * it). Pure functions, tested in Node.
 *
 *   {format: "micrograd-work", version: 1, course, site, saved,
 *    exercises: {exercise: version},                          // the course's, when saved
 *    learner,                                                 // the name or ID they gave, if any
 *    code: {codeKey: text},                                   // "mul", "local_grads/mul"
 *    versions: {codeKey: version},                            // the exercise's, as written
 *    tabs: {exercise: {verdict, at, version, attempted, passedWith, passedAt}}}   // what this browser said
 */
export const FORMAT = "micrograd-work";
export const VERSION = 1;
export const MAX_BYTES = 1_000_000;

/** Whether `text` is larger, in UTF-8, than a work file can be (grader/handin.py counts bytes too). */
export const tooLarge = (text) => text.length > MAX_BYTES || new TextEncoder().encode(text).length > MAX_BYTES;
export const MAX_LEARNER = 200; // characters of a name or ID (grader/handin.py reads as many)

/** A learner's words for a work file that cannot be loaded. */
export class WorkError extends Error {}

/** The work file of `saved` ({code, progress}, as storage holds them) for this course. */
export function workFile({ code, versions, progress }, { course, site, exercises = {}, now, learner = "" }) {
  const tabs = Object.fromEntries(
    Object.entries(progress).map(([exercise, record]) => [exercise, { ...record, verdict: record.verdict ?? null }]),
  );
  const named = learnerName(learner) ? { learner: learnerName(learner) } : {};
  const header = { format: FORMAT, version: VERSION, course, site, saved: now, exercises };
  return { ...header, ...named, code, versions, tabs };
}

/** A learner's name or ID as one line of text, as they typed it otherwise. */
export function learnerName(text) {
  return String(text ?? "")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_LEARNER);
}

/** The download's file name: the learner's name or ID in it, letters, digits, `.`, `_` and `-` kept. */
export function workFileName(learner, day) {
  const safe = learnerName(learner)
    .replace(/[^\p{L}\p{N}._-]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `micrograd-work-${safe ? `${safe}-` : ""}${day}.json`;
}

/**
 * `{code, versions, progress, otherVersion}` from a work file's `text`, checked before anything is saved:
 * raises WorkError with what to do for anything that is not this course's work.
 */
export function readWork(text, { course, site }) {
  if (tooLarge(text)) throw new WorkError("This file is too large to be a work file.");
  let found;
  try {
    found = JSON.parse(text);
  } catch {
    throw new WorkError("This file is not a work file (it is not JSON). Choose the file “Download my work” saved.");
  }
  if (found?.format !== FORMAT) {
    throw new WorkError("This file is not a work file from this course. Choose the file “Download my work” saved.");
  }
  if (found.version !== VERSION) {
    throw new WorkError("This work file was made by another version of the course, which this page cannot read.");
  }
  if (found.site !== site && found.course !== course) {
    throw new WorkError(`This work is from another course (${String(found.site).slice(0, 80)}): it was not loaded.`);
  }
  const code = texts(found.code);
  const progress = Object.fromEntries(
    Object.entries(isObject(found.tabs) ? found.tabs : {}).filter(([, record]) => isObject(record)),
  );
  const versions = Object.fromEntries(
    Object.entries(isObject(found.versions) ? found.versions : {}).filter(([, v]) => typeof v === "string"),
  );
  return { code, versions, progress, otherVersion: found.course !== course };
}

function texts(code) {
  if (!isObject(code)) throw new WorkError("This work file holds no code.");
  const entries = Object.entries(code).filter(([, text]) => typeof text === "string");
  return Object.fromEntries(entries);
}

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
