// The rules of Python's memory snapshots (widget/src/shared/snapshot-rules.js): which memory a
// worker restores and makes, and which the page saves and hands on. The scheduler's tests drive
// the same rule through its messages; these pin each rule alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  memoriesToTry,
  memoryToHand,
  memoryToMake,
  savedMemories,
  snapshotToSave,
} from "../../widget/src/shared/snapshot-rules.js";

const ON = { snapshots: true };
const OFF = { snapshots: false };

test("a judge tries its own memory, then a runner's; a runner only a runner's", () => {
  assert.deepEqual(savedMemories("judge"), ["judge", "runner"]);
  assert.deepEqual(savedMemories("runner"), ["runner"]);
  assert.deepEqual(
    memoriesToTry("judge", { ...ON, handed: false }).map(({ memory }) => memory),
    ["judge", "runner"],
  );
  assert.ok(memoriesToTry("judge", { ...ON, handed: false }).every(({ from }) => from === "saved"));
});

test("a handed memory is the only one tried, and it is a runner's", () => {
  assert.deepEqual(memoriesToTry("runner", { ...ON, handed: true }), [{ memory: "runner", from: "handed" }]);
  assert.deepEqual(memoriesToTry("runner", { ...ON, handed: false }), [{ memory: "runner", from: "saved" }]);
});

test("with snapshots off nothing is restored and nothing is made", () => {
  for (const role of ["judge", "runner"]) {
    assert.deepEqual(memoriesToTry(role, { ...OFF, handed: true }), []);
    for (const restored of [null, "runner", "judge"]) assert.equal(memoryToMake(role, restored, OFF), null);
  }
});

test("a runner from scratch packs its memory now; a restored one makes none", () => {
  assert.equal(memoryToMake("runner", null, ON), "now");
  assert.equal(memoryToMake("runner", "runner", ON), null);
});

test("a judge without a memory of its own makes one once warm", () => {
  assert.equal(memoryToMake("judge", null, ON), "when-warm");
  assert.equal(memoryToMake("judge", "runner", ON), "when-warm");
  assert.equal(memoryToMake("judge", "judge", ON), null);
});

test("the page saves a runner's memory only from the spare before it is ready", () => {
  assert.equal(snapshotToSave({ from: "spare", ready: false, digest: "abc" }), "runner");
  // once ready, a runner may be running learner code, which could send a memory of its own
  assert.equal(snapshotToSave({ from: "spare", ready: true, digest: "abc" }), null);
  assert.equal(snapshotToSave({ from: "runner", ready: false, digest: "abc" }), null);
});

test("the page saves the judge's memory once it is ready, if it was never asked", () => {
  assert.equal(snapshotToSave({ from: "judge", ready: true, asked: false, digest: "def" }), "judge");
  assert.equal(snapshotToSave({ from: "judge", ready: true, asked: true, digest: "def" }), null);
  assert.equal(snapshotToSave({ from: "judge", ready: false, asked: false, digest: "def" }), null);
});

test("a snapshot message without a digest is a memory not made, never saved", () => {
  for (const from of ["spare", "judge", "runner"])
    for (const ready of [false, true]) assert.equal(snapshotToSave({ from, ready, asked: false }), null);
});

test("the page hands a runner the memory it holds, and a judge nothing", () => {
  const held = { memory: "a Blob" };
  assert.equal(memoryToHand("runner", held), held);
  assert.equal(memoryToHand("runner", null), null);
  assert.equal(memoryToHand("judge", held), null);
});
