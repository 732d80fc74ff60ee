/**
 * The SHA-256 digests of Python's saved memory snapshots (widget/src/worker/snapshot.js), one
 * per role, kept in localStorage, where workers, and so learner code that reaches JavaScript in
 * one, cannot write. A worker restores only a snapshot with its digest.
 */
import { wasErased } from "../shared/erased.js";

const key = (site, role) => `micrograd:${site.pathname}:python-snapshot:${role}`;
const current = {}; // this page's own copies, for when storage is disabled

/** `role`'s digest for the site at `site` (a URL), or null. */
export function readDigest(site, role) {
  try {
    return localStorage.getItem(key(site, role)) ?? current[role] ?? null;
  } catch {
    return current[role] ?? null;
  }
}

/** Keeps `digest` as the one later workers of `role` may restore. */
export function writeDigest(site, role, digest) {
  current[role] = digest;
  if (wasErased()) return;
  try {
    localStorage.setItem(key(site, role), digest);
  } catch {
    // storage full or disabled: this page still restores from the snapshot it holds
  }
}
