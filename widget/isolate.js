/**
 * A service worker, served from the site's root so that it controls every page, that adds the
 * cross-origin isolation headers (COOP and COEP) to the site's own responses. Hosts that cannot
 * send headers (GitHub Pages, say) then still give the page SharedArrayBuffer from the next page
 * load on, and a run that must stop is interrupted instead of restarting Python.
 * Only pages and workers need the headers: every other request goes to the network as if there
 * were no service worker (the browser's caches, the compiled WebAssembly's among them, then work
 * as usual). The site fetches nothing from other origins.
 */
const HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  // a page's request then starts while this worker starts up, not after
  const preload = self.registration.navigationPreload?.enable();
  event.waitUntil(Promise.all([self.clients.claim(), preload]));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return;
  if (request.mode !== "navigate" && request.destination !== "worker") return;
  event.respondWith(isolated(request, event.preloadResponse));
});

async function isolated(request, preloaded) {
  const response = (await preloaded?.catch(() => null)) ?? (await fetch(request));
  // opaque answers (a redirect for a navigation) and errors cannot be, and need not be, rebuilt
  if (response.type !== "basic" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(HEADERS)) headers.set(name, value);
  const { status, statusText } = response;
  return new Response(response.body, { status, statusText, headers });
}
