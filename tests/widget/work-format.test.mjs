// The work file: what "Download my work" writes is what "Load work" reads back, and anything
// else is refused with what to do, before anything is saved.
import assert from "node:assert/strict";
import { test } from "node:test";
import { learnerName, MAX_BYTES, readWork, workFile, workFileName, WorkError } from "../../widget/src/work/format.js";

const HERE = { course: "3f2a9c0b1d4e", site: "https://example.org/course/", exercises: { mul: "abc" } };
const SAVED = {
  code: { mul: "self.grad += other.data * out.grad", "local_grads/mul": "(other.data, self.data)" },
  versions: { mul: "abc", "local_grads/mul": "def" },
  progress: { mul: { version: "abc", attempted: true, passedWith: "x", verdict: "pass", at: "t" } },
};

test("a work file reads back as it was saved", () => {
  const text = JSON.stringify(workFile(SAVED, { ...HERE, now: "2026-11-24T09:00:00Z" }));
  const read = readWork(text, HERE);
  assert.deepEqual(read.code, SAVED.code);
  assert.deepEqual(read.versions, SAVED.versions);
  assert.deepEqual(read.progress, SAVED.progress);
  assert.equal(read.otherVersion, false);
  assert.equal(JSON.parse(text).tabs.mul.verdict, "pass");
  assert.deepEqual(JSON.parse(text).exercises, HERE.exercises); // what a regrade compares, each
});

test("work from another version of the same course loads, and says so", () => {
  const text = JSON.stringify(workFile(SAVED, { ...HERE, course: "000000000000", now: "t" }));
  assert.equal(readWork(text, HERE).otherVersion, true);
});

const refused = (text, pattern) =>
  assert.throws(
    () => readWork(text, HERE),
    (e) => e instanceof WorkError && pattern.test(e.message),
  );

test("anything else is refused with what to do", () => {
  refused("not json", /not JSON\)\. Choose the file/);
  refused("[]", /not a work file from this course/);
  refused(JSON.stringify({ format: "micrograd-work", version: 2 }), /another version of the course/);
  const foreign = workFile(SAVED, { course: "1", site: "https://elsewhere/", now: "t" });
  refused(JSON.stringify(foreign), /another course \(https:\/\/elsewhere\/\)/);
  refused(" ".repeat(MAX_BYTES + 1), /too large/);
  refused("é".repeat(MAX_BYTES / 2 + 1), /too large/); // counted in bytes, as grader/handin.py counts
  refused(JSON.stringify({ ...workFile(SAVED, { ...HERE, now: "t" }), code: 5 }), /holds no code/);
});

test("entries that are not code or progress are dropped, not saved", () => {
  const file = workFile(SAVED, { ...HERE, now: "t" });
  const text = JSON.stringify({ ...file, code: { ...file.code, add: 7 }, tabs: { ...file.tabs, add: "pass" } });
  const read = readWork(text, HERE);
  assert.equal("add" in read.code, false);
  assert.equal("add" in read.progress, false);
});

test("the learner's name or ID goes in the file as one line, and in its name", () => {
  const file = workFile(SAVED, { ...HERE, now: "t", learner: "  Ada\n Lovelace,\ts1815 " });
  assert.equal(file.learner, "Ada Lovelace, s1815");
  assert.equal("learner" in workFile(SAVED, { ...HERE, now: "t", learner: " " }), false);
  assert.equal(learnerName("x".repeat(500)).length, 200);
  const check = (learner, name) => assert.equal(workFileName(learner, "2026-11-24"), name);
  check("Ada Lovelace, s1815", "micrograd-work-Ada-Lovelace-s1815-2026-11-24.json");
  check("../../etc/passwd", "micrograd-work-..-..-etc-passwd-2026-11-24.json");
  check("Zoë Ng 吴", "micrograd-work-Zoë-Ng-吴-2026-11-24.json");
  check("", "micrograd-work-2026-11-24.json");
});
