/**
 * Python loaded ahead of an exercise page the learner has not opened yet (prefetch.js decides
 * when), as a first visit's would be, so that the exercise page starts as a repeat visit does:
 *
 * 1. A runner loads Python from scratch, fills the browser's caches and saves its memory
 *    snapshot, then ends. If this page starts Python meanwhile (instant navigation keeps the
 *    page's JavaScript), the page's Python adopts it as its first spare.
 * 2. Then, unless the judge's memory is saved already, a judge restores that memory (handed
 *    over, or the saved one the runner itself restored), imports the grader, warms up and saves
 *    its own warm memory, then ends: the exercise page's judge restores it, instead of importing
 *    and warming the grader on top of the runner's (~0.4 s before its first verdict). The
 *    runner hands it the WebAssembly it compiled (a private window's HTTP cache does not keep
 *    it).
 *
 * Neither ever runs learner code. With memory snapshots off, only the runner loads. A page
 * whose own Python holds sessions only (a lesson's blocks) and started before loading ahead
 * could, loads the judge alone (`loadJudgeAhead`), from its runner's memory.
 */
import { startPythonWorker, wasmLink } from "./python-worker.js";
import { snapshotToSave } from "../shared/snapshot-rules.js";
import { saveSnapshot } from "../shared/snapshot-store.js";
import { readDigest, writeDigest } from "./snapshot-digest.js";
import { wasErased } from "../shared/erased.js";

// a judge that has not saved its memory by then is ended (it warms up ~2 s, waits 1 s, then packs)
const JUDGE_AHEAD_MS = 30_000;

let loading = null; // {handle, end}: the runner loading ahead
let judging = null; // {handle, end}: then the judge
let snapshot = null; // the Blob of the memory the runner saved, for the page's later runners

/** Starts loading from `url` (the worker's); resolves with how it ended: "ready", "taken" or
 * "failed". `site` is the site's root, where the snapshots' digests are kept. */
export function loadAhead(url, site) {
  if (loading || judging) return Promise.resolve("failed");
  return new Promise((resolve) => {
    // the runner compiles the WebAssembly for the judge after it, if one may follow
    const link = PYTHON_ASSETS.snapshot && !readDigest(site, "judge") ? wasmLink() : null;
    const handle = startPythonWorker(url, "runner", { id: "ahead", share: link?.compiler ?? null });
    const end = (how) => {
      if (loading?.handle !== handle) return;
      loading = null;
      if (how !== "taken") stop(handle);
      if (link && how === "ready") judgeAhead(url, site, link.receiver, snapshot).then(() => resolve(how));
      else {
        link?.receiver.close();
        resolve(how);
      }
    };
    loading = { handle, end };
    handle.port.onmessage = ({ data }) => {
      // it is this page's spare until it is ready (snapshot-rules.js)
      if (data?.type === "snapshot" && snapshotToSave({ from: "spare", ready: false, digest: data.digest })) {
        save(site, "runner", data);
        snapshot = data.blob;
      } else if (data?.type === "ready" || data?.type === "failed") {
        end(data.type);
      }
    };
    handle.worker.addEventListener("error", () => end("failed"));
  });
}

/** Step 2 alone, beside a page's Python that started without a judge: resolves "ready" once
 * the judge's memory is saved or the judge has ended, "failed" if one is loading ahead already.
 * `memory` is the Blob of the page's runner memory, if it made one. */
export function loadJudgeAhead(url, site, memory) {
  if (loading || judging) return Promise.resolve("failed");
  if (!PYTHON_ASSETS.snapshot || readDigest(site, "judge")) return Promise.resolve("ready");
  return judgeAhead(url, site, null, memory).then(() => "ready");
}

/** Step 2: a judge restores the runner's memory (`memory`, a Blob one made, else the saved
 * one) with the WebAssembly that comes through `wasm` (else it fetches and compiles it), and
 * saves its warm memory. Resolves once it has ended, saved or not. */
function judgeAhead(url, site, wasm, memory) {
  return new Promise((resolve) => {
    const handle = startPythonWorker(url, "judge", { id: "ahead", snapshot: memory, wasm });
    const timer = setTimeout(() => end(), JUDGE_AHEAD_MS);
    const end = () => {
      if (judging?.handle !== handle) return;
      judging = null;
      clearTimeout(timer);
      stop(handle);
      resolve();
    };
    judging = { handle, end };
    let ready = false;
    handle.port.onmessage = ({ data }) => {
      switch (data?.type) {
        case "ready":
          ready = true;
          return;
        case "snapshot": // asked nothing: the page never sends it a request
          if (snapshotToSave({ from: "judge", ready, asked: false, digest: data.digest })) save(site, "judge", data);
          return end();
        case "failed":
          return end();
      }
    };
    handle.worker.addEventListener("error", () => end());
  });
}

function save(site, role, { digest, key, blob }) {
  writeDigest(site, role, digest);
  if (!wasErased()) saveSnapshot(role, key, blob); // never rejects
}

function stop(handle) {
  handle.worker.terminate();
  handle.port.close();
}

/** `{handle, snapshot}`: the runner still loading ahead (or null), now the caller's, and the
 * memory snapshot loading ahead saved (or null). A judge loading ahead goes on. */
export function adoptAhead() {
  const handle = loading?.handle ?? null;
  loading?.end("taken");
  return { handle, snapshot };
}

/** Ends a judge loading ahead: the page starts its own, which saves its warm memory. */
export function endJudgeAhead() {
  judging?.end();
}
