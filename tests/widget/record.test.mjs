// The learner's record's pure modules (widget/src/record/): the verify page's words, held to the
// golden transcript grader/cli/verify.py writes (tests/test_verify.py), what a certificate file is
// read as and which exercises run; each exercise's state on the progress page and where to go
// on; and the day a tab first passed, kept in the saved progress.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { certifiedWork, passedCode } from "../../widget/src/record/claims.js";
import { courseProgress, dayOf, passedCount, tabState } from "../../widget/src/record/course.js";
import { identity, outcome, readCertificate, toVerify, verifyText } from "../../widget/src/record/verify.js";
import { Store } from "../../widget/src/shared/storage.js";
import { WorkError } from "../../widget/src/work/format.js";

const here = (file) => new URL(`../${file}`, import.meta.url);

test("the page words a check as the golden transcript holds it", () => {
  const cases = JSON.parse(readFileSync(here("verify_cases.json"), "utf8"));
  const written = Object.entries(cases)
    .map(([name, found]) => `## ${name}\n${verifyText(found)}\n\n`)
    .join("");
  assert.equal(written, readFileSync(here("verify_transcript.txt"), "utf8"));
});

const STUBS = { add: "pass\n", mul: "pass\n", engine: "class Value: ..." };
const COURSE = [
  { id: "add", label: "__add__", kind: "op", design: "closures", ops: ["add"], stubs: { add: STUBS.add } },
  { id: "mul", label: "__mul__", kind: "op", design: "closures", ops: ["mul"], stubs: { mul: STUBS.mul } },
  { id: "local-add", label: "__add__", kind: "op", design: "local_grads", ops: ["add"], stubs: { add: "(0, 0)" } },
  { id: "find-bug-1", label: "bug 1", kind: "engine", design: "closures", ops: ["engine"], stubs: STUBS },
];

function file(fields) {
  const base = { format: "micrograd-work", version: 1, course: "c1", saved: "2026-11-28T10:00:00Z" };
  return JSON.stringify({ ...base, code: {}, tabs: {}, ...fields });
}

test("a certificate is read as the command reads it, and its code runs on the course's tabs", () => {
  const code = { add: "self.grad += out.grad", "local_grads/add": "(0, 0)", "engine/find-bug-1": "fixed" };
  const read = readCertificate(file({ code, tabs: { mul: { verdict: "pass" } }, learner: "Ada\nLovelace" }));
  assert.equal(read.learner, "Ada Lovelace");
  assert.deepEqual(read.claimed, { mul: "pass" });
  const planned = toVerify(read, COURSE).map(({ exercise, bodies }) => [exercise.id, bodies]);
  assert.deepEqual(planned, [
    ["add", { add: "self.grad += out.grad" }],
    ["mul", { mul: STUBS.mul }], // no code, a pass claimed: its starter code is run
    ["find-bug-1", { engine: "fixed" }], // local-add holds its starter code: not tried
  ]);
  for (const [text, words] of [
    ["{", /not JSON/],
    [JSON.stringify({ format: "other" }), /not a certificate/],
    [file({ version: 2 }), /format/],
    [file({ code: { add: 3 } }), /not text/],
  ])
    assert.throws(
      () => readCertificate(text),
      (error) => error instanceof WorkError && words.test(error.message),
    );
});

test("which course a file was made for, and what it claims beyond its code", () => {
  const versions = { add: "v1", mul: "v1" };
  const made = (fields) => readCertificate(file(fields));
  assert.equal(identity(made({ course: "c1" }), "c1", versions), "same");
  assert.equal(identity(made({ course: "c0", exercises: { add: "v0" } }), "c1", versions), "version");
  assert.equal(identity(made({ course: "zz", exercises: { square: "v" } }), "c1", versions), "other");
  const claimed = made({ course: "c0", exercises: { add: "v1", mul: "v0" }, tabs: { add: { verdict: "pass" } } });
  const found = outcome(claimed, { course: "c1", versions }, [
    [COURSE[0], "stopped"],
    [COURSE[1], "pass"],
  ]);
  assert.deepEqual(
    found.tabs.map((tab) => [tab.id, tab.verdict, tab.claimed, tab.another]),
    [
      ["add", "error", "pass", false],
      ["mul", "pass", null, true],
    ],
  );
  assert.match(verifyText(found), /The file claims a pass for 1 exercise/);
});

test("each tab's state, the count, and where to go on", () => {
  const none = { attempted: false, verdict: null, solved: false, at: null, passedAt: null };
  const saved = {
    add: {
      ...none,
      attempted: true,
      verdict: "pass",
      solved: true,
      at: "2026-11-27T09:00:00Z",
      passedAt: "2026-11-26T09:00:00Z",
    },
    mul: { ...none, attempted: true, verdict: "fail", at: "2026-11-26T09:00:00Z" },
  };
  const progressOf = (exercise) => saved[exercise.id] ?? none;
  assert.deepEqual(
    COURSE.map((exercise) => tabState(progressOf(exercise))),
    ["passed", "tried", "not-started", "not-started"],
  );
  const map = {
    pages: [
      { title: "A", url: "a/", exercises: COURSE.slice(0, 2) },
      { title: "B", url: "b/", exercises: COURSE.slice(2) },
    ],
  };
  const found = courseProgress(map, progressOf);
  assert.deepEqual([found.passed, found.tried, found.total], [1, 1, 4]);
  assert.equal(found.resume.exercise.id, "mul", "after add, the latest worked on, the next not passed");
  assert.equal(found.pages[0].exercises[0].passedAt, "2026-11-26T09:00:00Z");
  assert.equal(passedCount({ add: "v", mul: "v" }, progressOf), 1);
  saved.mul = saved.add;
  assert.equal(courseProgress(map, progressOf).resume.exercise.id, "local-add");
  assert.equal(dayOf("2026-11-26T09:00:00Z", "en-GB"), "26 Nov 2026");
  assert.equal(dayOf(null), "");
});

test("the day a tab first passed is kept, and work saved before it was reads its last pass's", () => {
  const items = new Map();
  const storage = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
    key: (i) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
  const store = new Store(() => storage, new EventTarget());
  store.setProgress("add", "v1", { attempted: true, passedWith: "x", verdict: "pass", at: "2026-11-20T00:00:00Z" });
  assert.equal(store.progress("add", "v1").passedAt, "2026-11-20T00:00:00Z", "older work: its last run passed");
  store.setProgress("add", "v1", {
    ...store.progress("add", "v1"),
    verdict: "fail",
    passedWith: null,
    at: "2026-11-21",
  });
  assert.equal(store.progress("add", "v1").passedAt, "2026-11-20T00:00:00Z", "a later failing run keeps the day");
  assert.equal(store.progress("add", "v2").passedAt, null, "another version of the exercise starts afresh");
});

const DIAMOND = { id: "diamond", kind: "graph", design: "closures", ops: ["add", "mul"] };
const CURRENT = [...COURSE, DIAMOND].map((exercise) => ({ ...exercise, version: "v1" }));

test("a certificate holds the code each claimed pass ran, not an edit made since", () => {
  const passed = (passedWith, at, version = "v1") => ({ verdict: "pass", passedWith, at, version });
  const saved = {
    code: { add: "edited since", mul: "mul that passed", "engine/find-bug-1": "fixed" },
    versions: { add: "v1" },
    progress: {
      add: passed("add that passed", "2026-11-28T10:00:00Z"),
      mul: passed("mul that passed", "2026-11-28T10:01:00Z"),
      "find-bug-1": { verdict: "fail", passedWith: null, at: "2026-11-28T10:02:00Z" },
      "local-add": passed("(1, 1)", "2026-11-28T10:03:00Z", "v0"), // of an earlier version
    },
  };
  const work = certifiedWork(saved, CURRENT);
  assert.deepEqual(work.code, { add: "add that passed", mul: "mul that passed", "engine/find-bug-1": "fixed" });
  assert.deepEqual(work.claimed, ["add", "mul"]);
  assert.equal(work.progress.add.verdict, "pass");
  assert.equal(work.progress["local-add"].verdict, null);
  assert.equal(work.code["local_grads/add"], undefined);
  assert.deepEqual(saved.code.add, "edited since", "what is saved is untouched");
});

test("a pass whose code the file cannot hold is not claimed", () => {
  const saved = {
    code: {},
    versions: {},
    progress: {
      // two passes share the add slot with different code: the later wins, the earlier's claim goes
      diamond: {
        verdict: "pass",
        passedWith: JSON.stringify({ add: "old add", mul: "m" }),
        at: "2026-11-28T09:00:00Z",
        version: "v1",
      },
      add: { verdict: "pass", passedWith: "new add", at: "2026-11-28T10:00:00Z", version: "v1" },
      mul: { verdict: "pass", passedWith: null, at: "2026-11-28T10:00:00Z", version: "v1" }, // no code kept
      gone: { verdict: "pass", passedWith: "x", at: "2026-11-28T10:00:00Z", version: "v1" }, // not in this course
    },
  };
  const work = certifiedWork(saved, CURRENT);
  assert.deepEqual(work.claimed, ["add"]);
  assert.deepEqual(work.code, { add: "new add", mul: "m" });
  for (const id of ["diamond", "mul", "gone"]) assert.equal(work.progress[id].verdict, null, id);
});

test("a tab's passing code is read back into its slots", () => {
  assert.deepEqual(passedCode(COURSE[2], "(1, 1)"), { "local_grads/add": "(1, 1)" });
  assert.deepEqual(passedCode(COURSE[3], "engine code"), { "engine/find-bug-1": "engine code" });
  assert.deepEqual(passedCode(DIAMOND, JSON.stringify({ add: "a", mul: "m" })), { add: "a", mul: "m" });
  assert.equal(passedCode(DIAMOND, "{not json"), null);
  assert.equal(passedCode(DIAMOND, JSON.stringify({ add: "a" })), null);
});
