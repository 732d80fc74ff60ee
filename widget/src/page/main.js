/**
 * Entry point: hydrates every exercise widget on the page, once. Python starts first (if the
 * page's <head> has not started it already): it loads in a worker, so the page stays responsive,
 * and it downloads and compiles while the widgets mount.
 */
import { mountExercise } from "../exercise/widget.js";
import "../lessons/quiz.js";
import { python } from "./python.js";

const mounted = new WeakSet();

function mountAll() {
  const widgets = [...document.querySelectorAll("[data-exercise-widget]")].filter((el) => !mounted.has(el));
  if (widgets.length) python.start();
  for (const el of widgets) {
    mounted.add(el);
    try {
      mountExercise(el);
    } catch (error) {
      el.textContent = `This exercise could not be shown: ${error.message}`;
      console.error(error);
    }
  }
  // the benchmark (bench/) times the main thread from here to Python ready: usable while it loads
  if (widgets.length && !performance.getEntriesByName("widgets-mounted").length) performance.mark("widgets-mounted");
}

// mkdocs-material's instant navigation swaps pages without reloading: it announces each on document$
if (window.document$?.subscribe) window.document$.subscribe(mountAll);
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
