// Starting Python, each of Emscripten's tiny adaptor modules is compiled once per signature
// (pyodide-private.js `compilingOnce`), and `loadWithModule` leaves WebAssembly as it found it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { loadPyodide } from "pyodide";
import { compilingOnce, loadWithModule } from "../../widget/src/worker/pyodide-private.js";

const EMPTY = Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0); // a module with nothing in it
const ONE_TYPE = Uint8Array.of(...EMPTY, 1, 4, 1, 0x60, 0, 0); // and one function type, () -> ()

test("a small module's bytes are compiled once, a large one's every time", () => {
  const Module = compilingOnce(WebAssembly.Module);
  const first = new Module(EMPTY);
  assert.equal(new Module(Uint8Array.from(EMPTY)), first, "the same bytes, another array");
  assert.notEqual(new Module(ONE_TYPE), first, "other bytes");
  assert.ok(first instanceof WebAssembly.Module && first instanceof Module);
  assert.deepEqual(Module.exports(first), [], "the constructor's own functions are still there");
  const large = Uint8Array.of(...EMPTY, 0, 70, 1, 120, ...new Array(68).fill(0)); // a custom section
  assert.notEqual(new Module(large), new Module(large));
  assert.notEqual(new Module(EMPTY.buffer), new Module(EMPTY.buffer), "bytes not in a Uint8Array");
  assert.throws(() => new Module(Uint8Array.of(1, 2, 3)), WebAssembly.CompileError);
});

test("loadWithModule puts WebAssembly back, even when loading fails", async () => {
  const { Module, instantiateStreaming } = WebAssembly;
  const failing = async () => {
    assert.notEqual(WebAssembly.Module, Module, "swapped while loading");
    throw new Error("no Python");
  };
  await assert.rejects(loadWithModule(failing, null, {}), /no Python/);
  assert.equal(WebAssembly.Module, Module);
  assert.equal(WebAssembly.instantiateStreaming, instantiateStreaming);
});

test("Python started by loadWithModule compiles each adaptor signature once, and works", async () => {
  const wasm = await WebAssembly.compile(readFileSync(new URL(import.meta.resolve("pyodide/pyodide.asm.wasm"))));
  const { Module } = WebAssembly;
  let compiled = 0;
  const counting = new Proxy(Module, {
    construct(target, args, newTarget) {
      compiled += 1;
      return Reflect.construct(target, args, newTarget);
    },
  });
  WebAssembly.Module = counting;
  try {
    const pyodide = await loadWithModule(loadPyodide, wasm, {});
    const withCache = compiled;
    compiled = 0;
    await loadPyodide({}); // as Pyodide does it on its own
    assert.ok(compiled > 5 * withCache, `${withCache} compiled, against ${compiled} without`);
    assert.equal(pyodide.runPython("sum(range(10))"), 45);
  } finally {
    WebAssembly.Module = Module;
  }
});
