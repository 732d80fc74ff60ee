// Two browser tabs of the site share one localStorage: what one saves reaches the other's store
// (the `storage` event), so that the other never reads, shows or writes back what it had before.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Store } from "../../widget/src/shared/storage.js";
import { fakeStorage } from "./fixtures/fake-storage.mjs";

/** Two tabs: two stores over one storage, each with the window its `storage` events come to. */
function twoTabs() {
  const storage = fakeStorage();
  const windows = [new EventTarget(), new EventTarget()];
  const stores = windows.map((events) => new Store(() => storage, events));
  /** What the browser does when tab `from` wrote `key`: the other tabs hear of it. */
  const tell = (from, fullKey) => {
    const event = new Event("storage");
    Object.defineProperties(event, { key: { value: fullKey }, storageArea: { value: storage } });
    windows.forEach((events, i) => i !== from && events.dispatchEvent(event));
  };
  return { storage, stores, tell };
}

test("code saved in one tab is what the other reads next, and its listeners hear which", () => {
  const { storage, stores, tell } = twoTabs();
  const [a, b] = stores;
  assert.equal(b.code("mul"), null);
  a.setCode("mul", "self.grad += other.data * out.grad", 3);
  assert.equal(b.code("mul"), null, "b's memory still has what it read: without the event, stale");
  const heard = [];
  b.onElsewhere((keys) => heard.push(...keys));
  tell(
    0,
    [...storage.items.keys()].find((key) => key.endsWith(":code:mul")),
  );
  assert.deepEqual(heard, ["code:mul"]);
  assert.deepEqual(b.code("mul"), { text: "self.grad += other.data * out.grad", version: 3 });
});

test("progress saved in one tab is the other's too", () => {
  const { storage, stores, tell } = twoTabs();
  const [a, b] = stores;
  assert.equal(b.progress("mul", 1).passedWith, null);
  a.setProgress("mul", 1, { attempted: true, passedWith: "x", verdict: "pass", at: null, hints: 0 });
  tell(
    0,
    [...storage.items.keys()].find((key) => key.endsWith(":progress:mul")),
  );
  assert.equal(b.progress("mul", 1).passedWith, "x");
});

test("another site's keys and a storage cleared elsewhere", () => {
  const { stores, tell } = twoTabs();
  const [a, b] = stores;
  const heard = [];
  b.onElsewhere((keys) => heard.push(keys));
  tell(0, "someone-else:key");
  assert.deepEqual(heard, []);
  b.setCode("add", "pass", 1);
  tell(0, null); // localStorage.clear() in the other tab
  assert.deepEqual(heard, [["code:add"]]);
  assert.equal(a.code("add")?.text, "pass", "the storage holds what b wrote; only memory forgot");
});

test("the tab a widget had open is kept, and written only when it changes", () => {
  const { storage, stores } = twoTabs();
  const [a] = stores;
  assert.equal(a.tab("add mul"), null);
  a.setTab("add mul", "mul");
  const writes = storage.items.size;
  a.setTab("add mul", "mul");
  assert.equal(storage.items.size, writes);
  assert.equal(new Store(() => storage, null).tab("add mul"), "mul");
});

test("a tab showing what another saved does not write it back (it may be stale by then)", () => {
  const { storage, stores, tell } = twoTabs();
  const [a, b] = stores;
  a.setCode("mul", "x a", 1);
  tell(
    0,
    [...storage.items.keys()].find((key) => key.endsWith(":code:mul")),
  );
  // b's editor shows what is saved, and saves what it shows: in a browser, each tab's copy of
  // the storage lags behind the other's writes, so writing it back could undo a newer change
  const written = [];
  const setItem = storage.setItem;
  storage.setItem = (key, value) => written.push(key) && setItem(key, value);
  b.setCode("mul", b.code("mul").text, 1);
  assert.deepEqual(written, []);
  b.setCode("mul", "x ab", 1); // the learner's own edit is saved
  assert.equal(written.length, 1);
});

test("a listener stopped hears nothing more", () => {
  const { storage, stores, tell } = twoTabs();
  const heard = [];
  const stop = stores[1].onElsewhere((keys) => heard.push(keys));
  stores[0].setCode("add", "pass", 1);
  const key = [...storage.items.keys()].find((k) => k.endsWith(":code:add"));
  tell(0, key);
  stop();
  tell(0, key);
  assert.equal(heard.length, 1);
});
