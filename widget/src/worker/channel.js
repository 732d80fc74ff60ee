/**
 * The worker's end of its private channel to the page (widget/src/python/python-worker.js). The
 * page's first message says what the worker is for and hands over a MessagePort; everything
 * else goes over that port, held only in this module's scope, never through the worker's
 * global scope.
 */
const early = []; // what the worker said before the page's port arrived
let post = null;

/** Resolves with the page's first message: `{digests, snapshot, interrupt, wasm}`. */
export const connected = new Promise((resolve) => {
  self.addEventListener("message", function connect({ data, ports }) {
    if (data?.type !== "connect" || !ports?.[0] || post) return;
    self.removeEventListener("message", connect);
    const [port] = ports;
    post = port.postMessage.bind(port); // bound now: later changes to MessagePort do not reach it
    port.onmessage = ({ data: request }) => handle(request);
    for (const [message, transfer] of early.splice(0)) post(message, transfer);
    resolve({ ...data, port: undefined });
  });
});

const handlers = new Map();
const waiting = []; // requests that came before their handler
let heard = null; // performance.now() of the page's latest request

function handle(request) {
  heard = performance.now();
  const handler = handlers.get(request?.type);
  if (handler) handler(request);
  else waiting.push(request);
}

/** When the page's latest request came (performance.now()), or null before the first. */
export function lastRequest() {
  return heard;
}

/** Sends `message` to the page (queued until the port arrives). */
export function send(message, transfer = []) {
  if (post) post(message, transfer);
  else early.push([message, transfer]);
}

/** Calls `handler(request)` for every request of `type` from the page, those waiting first. */
export function on(type, handler) {
  handlers.set(type, handler);
  for (const request of waiting.splice(0)) handle(request);
}
