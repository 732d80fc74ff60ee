/**
 * The SHA-256 digest of Python's saved memory snapshot (widget/src/worker/snapshot.js), kept in
 * localStorage, where workers, and so learner code that reaches JavaScript in one, cannot
 * write. A worker restores only a snapshot with this digest.
 */
const key = (site) => `micrograd:${site.pathname}:python-snapshot`;
let current = null; // this page's own copy, for when storage is disabled

/** The digest for the site at `site` (a URL), or null. */
export function readDigest(site) {
  try {
    return localStorage.getItem(key(site)) ?? current;
  } catch {
    return current;
  }
}

/** Keeps `digest` as the one later workers may restore. */
export function writeDigest(site, digest) {
  current = digest;
  try {
    localStorage.setItem(key(site), digest);
  } catch {
    // storage full or disabled: this page still restores from the snapshot it holds
  }
}
