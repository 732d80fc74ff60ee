"""Live lesson cells (widget/src/lessons/) in Chromium, on the neuron's page: the main thread's
long tasks while the page is read (loaded, then 5 s of reading, Python not started), the first
Run of a block after that reading (from the click to its output on screen: Python starts then,
and the blocks above it run first), and a later Run of the same block. A first visit in a fresh
profile, then a repeat visit (a reload: Python's files cached, its memory snapshot kept).

    .venv/bin/python bench/cells_pace.py [--rounds 3] [--site site] [--page gradients/]

Figures, not assertions (BENCHMARK.md).
"""

import argparse
import statistics
from pathlib import Path

from playwright.sync_api import sync_playwright
from run import launch_options

from devtools import serve

ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).with_name("probe.js")
READING_MS = 5_000
# from the click on a cell's Run to its output painted: the cell's state settles, then two frames
TIMED_RUN = """async (index) => {
  const cell = document.querySelector(`[data-cell="${index}"]`);
  const button = [...cell.querySelectorAll("button")].find((b) => b.textContent.trim() === "Run");
  const settled = () => ["done", "error"].includes(cell.dataset.cellState);
  const start = performance.now();
  button.click();
  await new Promise((resolve) => {
    const seen = new MutationObserver(() => settled() && resolve(seen.disconnect()));
    seen.observe(cell, { attributes: true, attributeFilter: ["data-cell-state"] });
  });
  await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
  return { ms: performance.now() - start, state: cell.dataset.cellState };
}"""


def read_then_run(page, url, cell):
    """One visit: long tasks while read (count, total ms, longest ms), first and later Run (ms)."""
    page.goto(url)
    page.wait_for_timeout(READING_MS)
    tasks = [duration for _, duration in page.evaluate("() => window.__bench.longTasks")]
    page.locator(f'[data-cell="{cell}"]').scroll_into_view_if_needed()
    first = page.evaluate(TIMED_RUN, cell)
    later = page.evaluate(TIMED_RUN, cell)
    if first["state"] != "done" or later["state"] != "done":
        raise SystemExit(f"block {cell} did not run: {first['state']}, {later['state']}")
    return {
        "long tasks while read": len(tasks),
        "their total ms": sum(tasks),
        "longest ms": max(tasks, default=0),
        "first Run ms": first["ms"],
        "later Run ms": later["ms"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--page", default="gradients/")
    parser.add_argument("--cell", type=int, default=8, help="the block run (page order from 0)")
    args = parser.parse_args()
    visits = {"first visit": [], "repeat visit": []}
    with serve.start(args.site) as site, sync_playwright() as play:
        url = site.url + args.page
        for _ in range(args.rounds):
            browser = play.chromium.launch(**launch_options())
            context = browser.new_context(bypass_csp=True)  # the probe runs in the page
            context.add_init_script(path=PROBE)
            page = context.new_page()
            visits["first visit"].append(read_then_run(page, url, args.cell))
            visits["repeat visit"].append(read_then_run(page, url, args.cell))
            browser.close()
    print(f"{args.page}, block {args.cell}, {args.rounds} rounds, medians:")
    for visit, rounds in visits.items():
        figures = {name: statistics.median(r[name] for r in rounds) for name in rounds[0]}
        print(f"  {visit}: " + ", ".join(f"{name} {value:.0f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
