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
      // where each worker's start-up went: {judge, runner}, each {files, read, python, warm,
      // ready}, ms from the worker's start (widget/src/worker/load-python.js)
      phases: performance.getEntriesByName("python-ready")[0]?.detail?.phases ?? null,
      longTasks,
    }),

    // Times the next click on the visible panel's "Run test" button, from the click's time stamp
    // to the verdict on screen: Element Timing's render time of the verdict's title (the frame
    // it was first painted in, as presented), or where that API is not, the first task after
    // that frame (requestAnimationFrame, then a task; tasks queued by then, the page's own,
    // come first). Resolves with {ms, verdict, start, shown_by} and, for a run that was judged,
    // its parts: {to_runner_ms, runner_ms, judge_ms, drawn_ms}.
    armVerdictTimer() {
      const panel = document.querySelector("[data-exercise-widget] [role=tabpanel]:not([hidden])");
      const button = [...panel.querySelectorAll("button")].find((b) => /Run test/.test(b.textContent));
      const result = panel.querySelector(".mg-result");
      this.verdict = new Promise((resolve) => {
        let clicked = null;
        const stamp = (event) => (clicked = event.timeStamp);
        button.addEventListener("click", stamp, { capture: true, once: true });
        const watch = new MutationObserver(async () => {
          if (clicked === null || !result.dataset.verdict) return;
          watch.disconnect();
          const verdict = result.dataset.verdict;
          const { at, by } = await shown(result.querySelector(".mg-verdict__title"));
          // where the time went: python.js measures each run, from posting it to its result
          const run = performance.getEntriesByName("python-run").at(-1);
          const parts = run?.startTime >= clicked && {
            to_runner_ms: run.startTime - clicked,
            runner_ms: run.detail.observe,
            judge_ms: run.detail.judge,
            drawn_ms: at - run.startTime - run.duration,
          };
          resolve({ ms: at - clicked, verdict, start: clicked, shown_by: by, ...parts });
        });
        watch.observe(result, { attributes: true, attributeFilter: ["data-verdict"] });
      });
    },
  };

  const ELEMENT_TIMING = PerformanceObserver.supportedEntryTypes.includes("element");
  const WAIT_FOR_ENTRY_MS = 1000;

  // When `element`, just added and not yet painted, was on screen: `{at, by}`. `by` is "element
  // timing", or "next task" where that API is not, the element was painted out of view (no
  // entry then) or no entry came.
  async function shown(element) {
    const nextTask = new Promise((then) => requestAnimationFrame(() => setTimeout(() => then(performance.now()))));
    if (ELEMENT_TIMING) {
      element.setAttribute("elementtiming", "bench-verdict");
      const painted = renderTime(element);
      const at = (await inView(element)) ? await painted : null;
      if (at) return { at, by: "element timing" };
    }
    return { at: await nextTask, by: "next task" };
  }

  // `element`'s Element Timing render time, or null if none came within WAIT_FOR_ENTRY_MS
  function renderTime(element) {
    return new Promise((resolve) => {
      const seen = new PerformanceObserver((list) => {
        const entry = list.getEntries().find((e) => e.element === element);
        if (entry) end(entry.renderTime);
      });
      const end = (at) => {
        seen.disconnect();
        resolve(at);
      };
      seen.observe({ type: "element" });
      setTimeout(() => end(null), WAIT_FOR_ENTRY_MS);
    });
  }

  // whether `element` is in the viewport once laid out (reported after its first frame)
  function inView(element) {
    return new Promise((resolve) => {
      const watch = new IntersectionObserver(([entry]) => {
        watch.disconnect();
        resolve(entry.isIntersecting);
      });
      watch.observe(element);
    });
  }
})();
