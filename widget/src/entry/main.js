/**
 * Entry point: hydrates every exercise, training and microgpt widget on the page, once. Python starts
 * first (if the page's <head> has not started it already): it loads in workers, so the page
 * stays responsive, and it downloads and compiles while the widgets mount. The training widgets
 * and their plotting library come in chunks of their own, loaded only on a page that has one.
 * A lesson page loads Python ahead, when idle, for the exercises that follow (prefetch.js).
 * Once Python is ready (or has loaded ahead) and the browser is idle, the site's service worker
 * is registered to keep the course offline (page/offline.js); "Erase my data" mounts into any
 * `<div data-erase-data>`. A lesson page's code blocks become live cells (lessons/cells.js).
 */
import { mountFuzzCheck } from "../exercise/engine-check.js";
import { mountExercise } from "../exercise/widget.js";
import { endLeftCells, LESSON_DATA, mountCells } from "../lessons/cells.js";
import "../lessons/quiz.js";
import { mountErase } from "../page/erase.js";
import { fromDisk, PYTHON_WIDGETS } from "../page/from-disk.js";
import { keepOffline, pageOfAnotherDeploy } from "../page/offline.js";
import { loadAheadWhenIdle } from "../python/prefetch.js";
import { workPanel } from "../work/panel.js";
import { python } from "../python/python.js";
import { mountCertificate } from "../record/certificate.js";
import { showIndicator } from "../record/indicator.js";
import { mountProgress } from "../record/progress-page.js";
import { mountVerify } from "../record/verify-page.js";

const mounted = new WeakSet();

/** Mounts `el` with `mount(el)`; on failure says so where the widget would be, never a blank. */
function mountOne(el, mount, what) {
  mounted.add(el);
  const failed = (error) => {
    el.replaceChildren(`${what} could not be shown: ${error.message}`);
    el.classList.add("mg-widget--failed");
    console.error(error);
  };
  try {
    const done = mount(el);
    done?.catch?.(failed);
  } catch (error) {
    failed(error);
  }
}

const unmounted = (selector) => [...document.querySelectorAll(selector)].filter((el) => !mounted.has(el));

function mountAll() {
  // from disk no Python starts: the <head>'s early start said so in each widget's place
  if (fromDisk(location)) return;
  // instant navigation brought a page of a newer deploy than this module's: load it whole
  if (pageOfAnotherDeploy()) return location.reload();
  const exercises = unmounted("[data-exercise-widget]");
  const trainings = unmounted("[data-training-widget]");
  const gpts = unmounted("[data-microgpt-widget]");
  const checks = unmounted("[data-engine-check-widget]");
  const verifying = unmounted("[data-verify-page]");
  const graded = Boolean(exercises.length || checks.length || verifying.length);
  if (graded || trainings.length || gpts.length) {
    python.start({ judge: graded }); // training and microgpt hold sessions: no judge
    keepOffline(pythonSettled());
  } else if (!document.querySelector(PYTHON_WIDGETS)) keepOffline(loadAheadWhenIdle());
  for (const el of unmounted("[data-erase-data]")) mountOne(el, mountErase, "Erase my data");
  for (const el of exercises) mountOne(el, mountExercise, "This exercise");
  for (const el of checks) mountOne(el, mountFuzzCheck, "Check my whole engine");
  mountRecord(verifying);
  for (const el of unmounted("[data-work-panel]"))
    mountOne(el, (root) => root.replaceChildren(workPanel()), "Saving your work");
  // a lesson page's code blocks, live (lessons/cells.js): Python waits until one is reached or run
  endLeftCells();
  for (const el of unmounted(LESSON_DATA)) mountOne(el, mountCells, "This page's code blocks");
  for (const el of trainings) {
    const mount = async (root) => (await import("../training/training.js")).mountTraining(root);
    mountOne(el, mount, "The training");
  }
  for (const el of gpts) {
    const mount = async (root) => (await import("../microgpt/microgpt.js")).mountMicrogpt(root);
    mountOne(el, mount, "microgpt");
  }
  // the benchmark (bench/) times the main thread from here to Python ready: usable while it loads
  if (exercises.length && !performance.getEntriesByName("widgets-mounted").length) performance.mark("widgets-mounted");
}

/** The learner's record: the header's count, the progress page, its certificate, the verify page. */
function mountRecord(verifying) {
  showIndicator();
  for (const el of unmounted("[data-progress-page]")) mountOne(el, mountProgress, "Your progress");
  for (const el of unmounted("[data-certificate]")) mountOne(el, mountCertificate, "The certificate");
  for (const el of verifying) mountOne(el, mountVerify, "Verifying");
}

/** Resolves once Python is ready and nothing is under way, or has failed (python.js
 * announces both on <html>). */
function pythonSettled() {
  const root = document.documentElement;
  return new Promise((resolve) => {
    const check = () => {
      const { pythonState, pythonSettled } = root.dataset;
      if (pythonState !== "failed" && !(pythonState === "ready" && pythonSettled === "true")) return;
      observer.disconnect();
      resolve();
    };
    const observer = new MutationObserver(check);
    observer.observe(root, { attributeFilter: ["data-python-state", "data-python-settled"] });
    check();
  });
}

// mkdocs-material's instant navigation swaps pages without reloading: it announces each on document$
if (window.document$?.subscribe) window.document$.subscribe(mountAll);
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
