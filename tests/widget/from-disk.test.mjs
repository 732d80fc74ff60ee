// A page opened from disk cannot run Python: each widget's place says so, and how to serve the site.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FROM_DISK, fromDisk } from "../../widget/src/page/from-disk.js";

const opened = (address) => fromDisk(new URL(address));
const said = FROM_DISK.map((parts) => parts.map((part) => (typeof part === "string" ? part : part.code)).join(""));

test("only a page opened from a file is from disk", () => {
  assert.equal(opened("file:///home/ada/site/exercises/index.html"), true);
  assert.equal(opened("http://localhost:8000/exercises/"), false);
  assert.equal(opened("https://example.org/course/exercises/"), false);
});

test("the message is whole sentences: why nothing runs, then how to serve the site", () => {
  for (const sentence of said) assert.match(sentence, /^[A-Z].*\.$/);
  assert.match(said[0], /opened from a file on disk/);
  const commands = FROM_DISK.flat().flatMap((part) => (part.code ? [part.code] : []));
  assert.ok(commands.includes("python3 -m http.server") && commands.includes("make serve"), commands);
});
