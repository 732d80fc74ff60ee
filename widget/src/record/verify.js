/**
 * A certificate checked, as `python -m grader verify` checks it (grader/cli/verify.py, whose rules and
 * words these are, the words read from the same grader/verify_words.json; tests/verify_transcript.txt
 * holds them for both): which exercises to run, with which code, and what to say of the verdicts
 * the code earns against what the file claims. Pure, tested in Node.
 */
import WORDS from "../../../grader/verify_words.json" with { type: "json" };
import { isStub } from "../shared/scaffold.js";
import { FORMAT, learnerName, tooLarge, VERSION, WorkError } from "../work/format.js";
import { exerciseCodeKey } from "../exercise/model.js";

const EARNED = ["pass", "fail", "error"]; // a stopped or crashed run stops with an error
const MAX_CODE = 100_000; // characters of one tab's code, as grader/handin.py reads

/** `{course, saved, learner, code, claimed, exercises}` from a file's text (grader/handin.py's
 * `read_handin`); raises WorkError for anything that is not a work file. */
export function readCertificate(text) {
  if (tooLarge(text)) throw new WorkError("This file is too large to be a certificate.");
  let found;
  try {
    found = JSON.parse(text);
  } catch {
    throw new WorkError("This file is not a certificate (it is not JSON).");
  }
  if (found?.format !== FORMAT) throw new WorkError("This file is not a certificate of a micrograd course.");
  if (found.version !== VERSION) throw new WorkError("This certificate's format is one this page cannot read.");
  const [code, tabs] = [found.code, found.tabs ?? {}];
  if (!isObject(code) || !isObject(tabs)) throw new WorkError("This certificate holds no code.");
  for (const [key, value] of Object.entries(code)) {
    if (typeof value !== "string" || value.length > MAX_CODE)
      throw new WorkError(`The code of ${key.slice(0, 40)} in this certificate is not text of a tab's size.`);
  }
  const claimed = Object.fromEntries(
    Object.entries(tabs)
      .filter(([, tab]) => isObject(tab) && typeof tab.verdict === "string")
      .map(([name, tab]) => [name.slice(0, 40), tab.verdict]),
  );
  const exercises = Object.fromEntries(
    Object.entries(isObject(found.exercises) ? found.exercises : {})
      .filter(([, version]) => typeof version === "string")
      .map(([name, version]) => [name.slice(0, 40), version.slice(0, 40)]),
  );
  const short = (value) => (value ? String(value).slice(0, 40) : "");
  return {
    course: short(found.course),
    saved: short(found.saved),
    learner: learnerName(found.learner),
    code,
    claimed,
    exercises,
  };
}

/** `[{exercise, bodies}]`: each exercise of the course (`exercises`, in order) whose code the
 * file holds, or whose pass it claims; missing code is the starter code. */
export function toVerify(file, exercises) {
  const found = [];
  for (const exercise of exercises) {
    const bodies = Object.fromEntries(
      exercise.ops.map((op) => [op, file.code[exerciseCodeKey(exercise, op)] || exercise.stubs[op]]),
    );
    const tried = !exercise.ops.every((op) => isStub(bodies[op], exercise.stubs[op]));
    if (tried || file.claimed[exercise.id] === "pass") found.push({ exercise, bodies });
  }
  return found;
}

/** "same", "version" or "other": the course the file was made for, against this one. */
export function identity(file, course, versions) {
  if (file.course === course) return "same";
  return Object.keys(file.exercises).some((name) => Object.hasOwn(versions, name)) ? "version" : "other";
}

/** What to say (grader/cli/verify.py `outcome`): `earned` is `[[exercise, verdict]]` in order;
 * `here` is `{course, versions}`, this course's. */
export function outcome(file, here, earned) {
  const named = Object.keys(file.exercises).length > 0;
  const tabs = earned.map(([exercise, verdict]) => ({
    id: exercise.id,
    label: exercise.label,
    verdict: EARNED.includes(verdict) ? verdict : "error",
    claimed: file.claimed[exercise.id] ?? null,
    another: named && file.exercises[exercise.id] !== here.versions[exercise.id],
  }));
  const course = identity(file, here.course, here.versions);
  return { learner: file.learner, saved: file.saved.slice(0, 10), course, tabs };
}

export const claimsMore = (tab) => tab.claimed === "pass" && tab.verdict !== "pass";

/** One exercise's sentences. */
export function tabText(tab) {
  const said = [WORDS.earned[tab.verdict]];
  if (tab.another) said.push(WORDS.another_version);
  if (claimsMore(tab)) said.push(WORDS.claims_more);
  return said.join(" ");
}

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));

/** Who, when, and which course. */
export function headText(found) {
  return [fill(found.learner ? WORDS.who : WORDS.nobody, found), WORDS.course[found.course]];
}

/** How many pass, and how many claims the code does not earn. */
export function tailText({ tabs }) {
  if (!tabs.length) return [WORDS.none];
  const passed = tabs.filter((tab) => tab.verdict === "pass").length;
  const over = tabs.filter(claimsMore).length;
  const claims = WORDS[over === 0 ? "over_none" : over === 1 ? "over_one" : "over_many"];
  return [fill(WORDS.count, { passed, count: tabs.length }), fill(claims, { over })];
}

/** The whole check as text, as the command prints it (the transcript's form). */
export function verifyText(found) {
  const rows = found.tabs.map((tab) => `${tab.id.padEnd(16)} ${tab.verdict.padEnd(5)}  ${tabText(tab)}`);
  return [...headText(found), "", ...rows, ...(rows.length ? [""] : []), ...tailText(found)].join("\n");
}

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
