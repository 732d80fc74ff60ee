/**
 * One runner loading Python ahead of an exercise page the learner has not opened yet
 * (prefetch.js decides when): as a first visit's, it fills the browser's caches and saves
 * Python's memory snapshot, then ends. If this page starts Python meanwhile (instant
 * navigation keeps the page's JavaScript), the page's Python adopts it as its first spare.
 */
import { startPythonWorker } from "./python-worker.js";
import { snapshotToSave } from "../shared/snapshot-rules.js";
import { saveSnapshot } from "../shared/snapshot-store.js";
import { writeDigest } from "./snapshot-digest.js";
import { wasErased } from "../shared/erased.js";

let loading = null; // {handle, end}
let snapshot = null; // the Blob of the memory it saved, for the page's later runners

/** Starts loading from `url` (the worker's); resolves with how it ended: "ready", "taken" or
 * "failed". `site` is the site's root, where the snapshot's digest is kept. */
export function loadAhead(url, site) {
  if (loading) return Promise.resolve("failed");
  return new Promise((resolve) => {
    const handle = startPythonWorker(url, "runner", { id: "ahead" });
    const end = (how) => {
      if (loading?.handle !== handle) return;
      loading = null;
      if (how !== "taken") {
        handle.worker.terminate();
        handle.port.close();
      }
      resolve(how);
    };
    loading = { handle, end };
    handle.port.onmessage = ({ data }) => {
      // it is this page's spare until it is ready (snapshot-rules.js)
      if (data?.type === "snapshot" && snapshotToSave({ from: "spare", ready: false, digest: data.digest })) {
        writeDigest(site, "runner", data.digest);
        if (!wasErased()) saveSnapshot("runner", data.key, data.blob); // never rejects
        snapshot = data.blob;
      } else if (data?.type === "ready" || data?.type === "failed") {
        end(data.type);
      }
    };
    handle.worker.addEventListener("error", () => end("failed"));
  });
}

/** `{handle, snapshot}`: the runner still loading ahead (or null), now the caller's, and the
 * memory snapshot loading ahead saved (or null). */
export function adoptAhead() {
  const handle = loading?.handle ?? null;
  loading?.end("taken");
  return { handle, snapshot };
}
