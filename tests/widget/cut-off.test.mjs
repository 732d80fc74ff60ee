// widget/src/worker/cut-off.js: a runner's global scope loses storage, caches, channels and
// workers of its own, own properties and inherited ones alike, and says so if one stays.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CUT_OFF, cutOff } from "../../widget/src/worker/cut-off.js";

function scope() {
  const proto = { caches: {}, indexedDB: {} };
  Object.defineProperty(proto, "importScripts", { value: () => {}, configurable: true });
  const global = Object.create(proto);
  Object.assign(global, { BroadcastChannel: class {}, Worker: class {}, SharedWorker: class {}, fetch: () => {} });
  const navigator = Object.create({ storage: {}, locks: {}, userAgent: "test" });
  return { global, navigator };
}

test("every name is gone from the scope and its prototypes; fetch stays", () => {
  const { global, navigator } = scope();
  cutOff(global, navigator);
  for (const name of CUT_OFF) assert.equal(name in global, false, name);
  assert.equal("storage" in navigator, false);
  assert.equal("locks" in navigator, false);
  assert.equal(typeof global.fetch, "function");
  assert.equal(navigator.userAgent, "test");
});

test("a name that cannot be deleted is said, not left", () => {
  const { global, navigator } = scope();
  Object.defineProperty(global, "caches", { value: {}, configurable: false });
  assert.throws(() => cutOff(global, navigator), /could not be cut off from caches/);
});
