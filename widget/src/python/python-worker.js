/**
 * Starts a Python worker (widget/src/worker/main.js) for a role, "judge" or "runner", and
 * connects it: the early start in a page's <head> (early-start.js) and the page's Python
 * (python.js) both start theirs here.
 *
 * The worker is a module created from a `blob:` URL that imports the real one: such a worker
 * takes the page's Content-Security-Policy (`connect-src 'self'`), so code that reaches
 * JavaScript inside it cannot send anything to another site. Its first message hands over a
 * MessagePort; everything else goes over that port, never through the worker's global scope.
 */
import { readDigest } from "./snapshot-digest.js";

/**
 * `{worker, port, role, name, interrupt, errors}` for a new worker of `role` running `url`: its
 * name (`python-<role>-<id>`) says its role to the worker and tells the page's workers apart.
 * `snapshot` is a Blob of a runner's memory to restore (else the worker reads the saved one, or
 * the judge its own); the first message carries the digests the saved ones must have.
 * `wasm` is Pyodide's compiled WebAssembly module, or a MessagePort it will come through (a
 * `wasmLink()`'s `receiver` end), else the worker fetches and compiles it; a worker given `share`
 * (the link's `compiler` end) posts its compiled module there. A runner gets an interrupt buffer
 * where the page is cross-origin isolated.
 */
export function startPythonWorker(url, role, { id, snapshot = null, wasm = null, share = null }) {
  const source = new Blob([`import ${JSON.stringify(String(url))};`], { type: "text/javascript" });
  const address = URL.createObjectURL(source);
  // the name says the role, and whether the WebAssembly comes with the first message: the
  // worker knows before that message can reach it (after Pyodide's modules are evaluated)
  const name = `python-${role}-${id}${wasm ? "+wasm" : ""}`;
  const worker = new Worker(address, { type: "module", name });
  const errors = [];
  worker.onerror = (event) => {
    event.preventDefault(); // said on the status line instead
    errors.push(event);
  };
  const isolated = globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function";
  const interrupt = role === "runner" && isolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  const channel = new MessageChannel();
  const site = new URL("../../", url);
  // the worker knows whose memories its role may restore
  const digests = { runner: readDigest(site, "runner"), judge: readDigest(site, "judge") };
  const connect = { type: "connect", digests, snapshot, interrupt: interrupt?.buffer ?? null, share };
  const links = [share, wasm].filter((end) => end instanceof MessagePort);
  try {
    worker.postMessage({ ...connect, wasm }, [channel.port2, ...links]);
  } catch {
    // a browser that cannot post a module (never a port): the worker fetches and compiles it
    worker.postMessage(connect, [channel.port2, ...links]);
  }
  channel.port1.addEventListener("message", () => URL.revokeObjectURL(address), { once: true });
  return { worker, port: channel.port1, role, name, interrupt, errors };
}

/**
 * A link between two workers, so that Pyodide's WebAssembly is fetched and compiled once: a
 * private window's HTTP cache does not keep it for the second. The worker given the `compiler`
 * end (as `share`) posts its module (or null, when it cannot) straight to the one given the
 * `receiver` end (as `wasm`), never waiting on the page's busy main thread, and listens to
 * nothing on it: a judge for the runner started beside it (early-start.js), or a runner loading
 * ahead for the judge after it (load-ahead.js).
 */
export function wasmLink() {
  const { port1, port2 } = new MessageChannel();
  return { compiler: port1, receiver: port2 };
}

/**
 * What this browser lacks that the course's Python needs, said for the learner, or null. Old
 * browsers lack module workers (Firefox before 114, Safari before 15): a worker that cannot
 * load would otherwise look like a file missing from the site.
 */
export function missingFeature() {
  if (typeof WebAssembly !== "object") return "WebAssembly";
  if (typeof Worker !== "function" || typeof MessageChannel !== "function") return "Web Workers";
  let modules = false;
  const options = {
    get type() {
      modules = true; // only a browser with module workers reads this option
      return "module";
    },
  };
  try {
    // the options are read before the address is parsed: this one fails, and no worker starts
    new Worker("http://[", options).terminate();
  } catch {
    // SyntaxError, as intended
  }
  return modules ? null : "module workers";
}

/**
 * Starts noting what the host's Content-Security-Policy refuses the page's Python (a header of
 * the host's own, which the course cannot see): `policyProblem()` says it, for the status line.
 */
export function watchPolicy() {
  if (globalThis.coursePolicy) return;
  const refused = (globalThis.coursePolicy = []);
  document.addEventListener("securitypolicyviolation", ({ effectiveDirective, blockedURI }) => {
    if (/^(worker|script)-src/.test(effectiveDirective) && /^(blob|eval|wasm)/.test(blockedURI))
      refused.push(effectiveDirective);
  });
}

/** What the host's policy refused, said for whoever hosts the course; or null. */
export function policyProblem() {
  const refused = globalThis.coursePolicy ?? [];
  if (!refused.length) return null;
  return `this site's Content-Security-Policy refuses the workers Python runs in (${refused[0]}); whoever hosts this course should allow blob: in worker-src and 'wasm-unsafe-eval' in script-src.`;
}
