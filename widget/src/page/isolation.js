/**
 * Cross-origin isolation lets a run be interrupted instead of restarting Python (python.js). On
 * hosts that cannot send its headers, the site's service worker (widget/isolate.js, at the site's
 * root) adds them: registered here, it isolates every page loaded after this one.
 */
const ROOT = new URL("../../", import.meta.url); // this bundle is assets/course/widget.js
let registered = false;

export function registerIsolation() {
  if (registered || globalThis.crossOriginIsolated || !window.isSecureContext) return;
  if (!navigator.serviceWorker) return;
  registered = true;
  navigator.serviceWorker
    .register(new URL("isolate.js", ROOT), { scope: ROOT.pathname })
    .catch((error) => console.warn(`Python runs without cross-origin isolation: ${error.message}`));
}
