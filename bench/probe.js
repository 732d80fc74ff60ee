// Injected into every page the benchmark opens, before the page's own scripts: what it reads
// in the page, as `window.__bench`. Times are the page's own, from navigation start.
(() => {
  const longTasks = [];
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) longTasks.push([task.startTime, task.duration]);
  }).observe({ type: "longtask", buffered: true });

  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;

  window.__bench = {
    longTasks,
    ready: () => mark("python-ready") !== null,
    // the page's memory, its workers' included (Chromium, cross-origin isolated pages only)
    memory: async () =>
      crossOriginIsolated && performance.measureUserAgentSpecificMemory
        ? (await performance.measureUserAgentSpecificMemory()).bytes
        : null,
    timeline: () => ({
      start: mark("python-start"),
      ready: mark("python-ready"),
      mounted: mark("widgets-mounted"), // the course's page only
      // the course's page: whether Python was restored from its memory snapshot
      restored: performance.getEntriesByName("python-ready")[0]?.detail?.restored ?? null,
      longTasks,
    }),

    // Times the next click on the visible panel's "Run test" button, from the click's time stamp
    // to the frame after the result gets its data-verdict (requestAnimationFrame, then a task:
    // by then it is painted). Resolves with {ms, verdict, start} and, for a run that was judged,
    // its parts: {to_runner_ms, runner_ms, judge_ms, drawn_ms}.
    armVerdictTimer() {
      const panel = document.querySelector("[data-exercise-widget] [role=tabpanel]:not([hidden])");
      const button = [...panel.querySelectorAll("button")].find((b) => /Run test/.test(b.textContent));
      const result = panel.querySelector(".mg-result");
      this.verdict = new Promise((resolve) => {
        let clicked = null;
        const stamp = (event) => (clicked = event.timeStamp);
        button.addEventListener("click", stamp, { capture: true, once: true });
        const watch = new MutationObserver(() => {
          if (clicked === null || !result.dataset.verdict) return;
          watch.disconnect();
          const verdict = result.dataset.verdict;
          const painted = () => {
            // where the time went: python.js measures each run, from posting it to its result
            const run = performance.getEntriesByName("python-run").at(-1);
            const parts = run?.startTime >= clicked && {
              to_runner_ms: run.startTime - clicked,
              runner_ms: run.detail.observe,
              judge_ms: run.detail.judge,
              drawn_ms: performance.now() - run.startTime - run.duration,
            };
            resolve({ ms: performance.now() - clicked, verdict, start: clicked, ...parts });
          };
          requestAnimationFrame(() => setTimeout(painted));
        });
        watch.observe(result, { attributes: true, attributeFilter: ["data-verdict"] });
      });
    },
  };
})();
