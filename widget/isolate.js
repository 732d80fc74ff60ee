/* global DEPLOY */
/**
 * The course's service worker, at the site's root so that it controls every page. The site step
 * writes it with the deploy it belongs to on its first line (`DEPLOY`, course/offline.py); the
 * page registers it once Python is ready and the browser idle (widget/src/page/offline.js).
 *
 * Offline: installing, it copies every file of its deploy (deploy.json lists them with their
 * hashes) into one cache named by the deploy, checking each file's hash: a host that changes
 * deploy meanwhile fails the check, and the install with it, so a cache never holds two
 * deploys. A file an earlier deploy's cache holds with the same hash is copied from there. It
 * then answers the site's requests from that cache, the network only for what it lacks: a
 * page, the widget, its workers and the Python archives always of one deploy, with the network
 * or without.
 *
 * Updates: the browser checks the script on each page load; a new deploy's worker installs in
 * the background and waits until a page asks it to take over (the learner chose to reload), so
 * that no open page is answered from another deploy than its own. Taking over, it deletes the
 * older deploys' caches. The first deploy a browser keeps takes over at once.
 *
 * Isolation: it adds the cross-origin isolation headers (COOP and COEP) to pages and workers, so
 * that hosts that cannot send headers (GitHub Pages, say) still give the page SharedArrayBuffer
 * from the next page load on, and a run that must stop is interrupted instead of restarting Python.
 *
 * Nothing from another origin is ever answered or cached (the site fetches nothing from one).
 */
const HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};
const SITE = new URL("./", self.location);
// two courses on one host never share a cache (shared/storage.js namespaces the same way)
const PREFIX = `micrograd:${SITE.pathname}:deploy:`;
const CACHE = PREFIX + DEPLOY;
const LISTING = new URL("deploy.json", SITE).href;
const AT_ONCE = 6; // downloads under way together while precaching
// a stored response's headers: its body is stored decoded, whatever the host's compression
const KEPT_HEADERS = ["content-type", "last-modified", "etag"];

self.addEventListener("install", (event) => event.waitUntil(install()));
self.addEventListener("activate", (event) => event.waitUntil(activate()));
self.addEventListener("message", (event) => {
  if (event.data?.type === "take-over") self.skipWaiting();
});

async function install() {
  const answer = await fetch(LISTING, { cache: "no-store" });
  const listing = await answer.json();
  if (listing.deploy !== DEPLOY) throw new Error(`the host now serves deploy ${listing.deploy}`);
  const cache = await caches.open(CACHE);
  const earlier = await earlierDeploy();
  const names = Object.keys(listing.files);
  let next = 0;
  const downloader = async () => {
    while (next < names.length) {
      const name = names[next++];
      await precache(cache, name, listing.files[name], earlier);
    }
  };
  try {
    await Promise.all(Array.from({ length: AT_ONCE }, downloader));
  } catch (error) {
    await caches.delete(CACHE); // never a half-made copy kept
    throw error;
  }
  // the listing goes in last: a cache that holds it is complete
  await cache.put(LISTING, new Response(JSON.stringify(listing), { headers: { "Content-Type": "application/json" } }));
  if (!earlier) await self.skipWaiting();
}

/** `{cache, files}` of an earlier deploy's complete cache, or null. */
async function earlierDeploy() {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const listing = await cache.match(LISTING);
    if (listing) return { cache, files: (await listing.json()).files };
  }
  return null;
}

async function precache(cache, name, hash, earlier) {
  const url = new URL(name, SITE).href;
  if (earlier?.files[name] === hash) {
    const kept = await earlier.cache.match(url);
    if (kept) return cache.put(url, kept);
  }
  // the browser's cache first (a first visit has most files there by now): a copy with the
  // right hash is the right copy, and one without it is fetched again, past the cache
  let [response, body] = await download(url, "default");
  if ((await sha16(body)) !== hash) [response, body] = await download(url, "reload");
  if ((await sha16(body)) !== hash) throw new Error(`${name} is not deploy ${DEPLOY}'s`);
  const headers = new Headers();
  for (const header of KEPT_HEADERS) {
    if (response.headers.has(header)) headers.set(header, response.headers.get(header));
  }
  await cache.put(url, new Response(body, { headers }));
}

async function download(url, cache) {
  const response = await fetch(url, { cache });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return [response, await response.arrayBuffer()];
}

async function sha16(body) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return [...bytes.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function activate() {
  // pages come from the cache: a navigation's request made ahead would be wasted
  await self.registration.navigationPreload?.disable();
  const older = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  await Promise.all(older.map((name) => caches.delete(name)));
  await self.clients.claim();
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return;
  if (url.href === LISTING) return; // a page asking which deploy the host serves now
  event.respondWith(answer(request, url));
});

async function answer(request, url) {
  const response = (await cached(request, url)) ?? (await fetch(request));
  if (request.mode !== "navigate" && request.destination !== "worker") return response;
  return isolated(response);
}

/** This deploy's copy of what `request` asks for, or undefined. */
async function cached(request, url) {
  if (!(await caches.has(CACHE))) return undefined;
  const file = new URL(url);
  file.hash = "";
  if (file.pathname.endsWith("/")) file.pathname += "index.html";
  const cache = await caches.open(CACHE);
  return cache.match(file.href, { ignoreSearch: request.mode === "navigate" });
}

function isolated(response) {
  // opaque answers (a redirect for a navigation) and errors cannot be, and need not be, rebuilt
  if (response.type === "opaqueredirect" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(HEADERS)) headers.set(name, value);
  const { status, statusText } = response;
  return new Response(response.body, { status, statusText, headers });
}
