// No import circles in the browser code (widget/src/ and widget/*.js): no module imports itself
// through others, and no folder of widget/src/ (a room: exercise/, training/, shared/, ...)
// imports from a folder that imports from it. A circle is broken by moving the shared piece to
// where it belongs, not by a dynamic import: `import("./x.js")` counts as an edge too.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const WIDGET = fileURLToPath(new URL("../../widget/", import.meta.url));
const SRC = join(WIDGET, "src");

// `import {a, b as c} from "./x.js"`, `import * as x from`, `export {a} from`, `import "./x.js"`
// (each at a line's start), and `import("./x.js")` anywhere: relative specifiers only
const STATIC = /^\s*(?:import|export)\s+(?:[\w$*{}\s,]+?\s+from\s*)?["'](\.{1,2}\/[^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The modules each module imports: `{file: [file, ...]}`, files relative to widget/. */
function importGraph(files, read) {
  const graph = {};
  for (const file of files) {
    const text = read(file);
    const specifiers = [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((match) => match[1]);
    graph[file] = [...new Set(specifiers.map((spec) => join(dirname(file), spec)))];
  }
  return graph;
}

/** Every circle of `graph` (Tarjan's strongly connected components), each as one path around it
 * and the nodes tied into it: `{around: ["a", "b", "a"], members: ["a", "b", "c"]}`. A node that
 * imports itself is a circle too. */
function circles(graph) {
  const [index, low, onStack, stack, found] = [new Map(), new Map(), new Set(), [], []];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (const next of graph[node] ?? []) {
      if (!(next in graph)) continue; // a package, or a file outside the graph
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) low.set(node, Math.min(low.get(node), low.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const members = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || graph[node].includes(node))
      found.push({ around: pathAround(graph, members), members: members.sort() });
  };
  for (const node of Object.keys(graph).sort()) if (!index.has(node)) visit(node);
  return found;
}

/** The shortest path from the first of `members` (sorted) back to it, inside `members`. */
function pathAround(graph, members) {
  const start = [...members].sort()[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of graph[node]) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]));
        return [...path, start];
      }
      if (members.includes(next) && !cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
}

/** The folders' graph: a folder of widget/src/ imports the folders its modules import from. */
function folderGraph(graph) {
  const room = (file) => file.split("/").slice(0, 2).join("/"); // "src/exercise"
  const folders = {};
  for (const [file, imports] of Object.entries(graph)) {
    if (!file.startsWith("src/")) continue;
    const targets = imports.filter((target) => target.startsWith("src/") && room(target) !== room(file));
    folders[room(file)] = [...new Set([...(folders[room(file)] ?? []), ...targets.map(room)])];
  }
  return folders;
}

function widgetModules() {
  const inSrc = readdirSync(SRC, { recursive: true }).filter((name) => name.endsWith(".js"));
  const top = readdirSync(WIDGET).filter((name) => /\.m?js$/.test(name));
  return [...inSrc.map((name) => join("src", name)), ...top];
}

const graph = importGraph(widgetModules(), (file) => readFileSync(resolve(WIDGET, file), "utf8"));
const said = (found) =>
  found.map(({ around, members }) => `${around.join(" → ")} (tied together: ${members.join(", ")})`).join("\n");

test("the reader finds static, re-exported, bare and dynamic imports, and no packages", () => {
  const texts = {
    "src/a/x.js": 'import {\n  one,\n  two as three,\n} from "./y.js";\nimport uPlot from "uplot";\n',
    "src/a/y.js": 'export { four } from "../b/z.js";\nimport "./side.js";\n// import nothing from "./x.js"\n',
    "src/b/z.js": 'const later = () => import("../a/x.js");\n',
  };
  const read = importGraph(Object.keys(texts), (file) => texts[file]);
  assert.deepEqual(read, {
    "src/a/x.js": ["src/a/y.js"],
    "src/a/y.js": ["src/b/z.js", "src/a/side.js"],
    "src/b/z.js": ["src/a/x.js"],
  });
  assert.deepEqual(circles(read), [
    { around: ["src/a/x.js", "src/a/y.js", "src/b/z.js", "src/a/x.js"], members: Object.keys(texts) },
  ]);
  assert.deepEqual(circles(folderGraph(read)), [{ around: ["src/a", "src/b", "src/a"], members: ["src/a", "src/b"] }]);
  assert.deepEqual(circles({ "a.js": ["a.js"] }), [{ around: ["a.js", "a.js"], members: ["a.js"] }]);
  assert.deepEqual(circles({ "a.js": ["b.js"], "b.js": [] }), []);
});

test("the widget's modules were read", () => {
  // a reader that found nothing would find no circle either
  assert.ok(graph["src/python/scheduler-fuzz.js"].includes("src/python/limits.js"));
  assert.ok(graph["src/entry/main.js"].includes("src/training/training.js"), "a dynamic import");
  assert.ok(Object.values(graph).flat().length > 200);
});

test("no module of the widget imports itself through others", () => {
  const found = circles(graph);
  assert.equal(found.length, 0, `import circles in widget/:\n${said(found)}`);
});

test("no folder of widget/src/ imports from a folder that imports from it", () => {
  const found = circles(folderGraph(graph));
  assert.equal(found.length, 0, `folders of widget/ that import each other:\n${said(found)}`);
});
