""" "Check my whole engine" in Chromium (widget/src/exercise/engine-check.js): the time from the
click to the answer for 500 graphs of the references (every closures op written), and for a
wrong `__mul__` (`=` for `+=`: found, shrunk, observed and judged), and the longest main-thread
task meanwhile. Figures, not assertions: `.venv/bin/python bench/engine_check_pace.py [RUNS]`
on a built site (`make build`)."""

import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from devtools import chromium, serve
from grader.exercises import load_catalog

SITE = Path(__file__).resolve().parent.parent / "site"
OPS = ("add", "mul", "pow", "tanh", "exp", "relu", "log", "sigmoid")
WRONG_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
TIMEOUT_MS = 120_000
# from the click to the section's answer, and the longest task meanwhile
TIMED = """async () => {
  const section = document.querySelector("[data-engine-check]");
  const button = [...section.querySelectorAll("button")]
    .find((b) => b.textContent.includes("Check my whole"));
  let longest = 0;
  const watch = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  });
  watch.observe({ type: "longtask" });
  const start = performance.now();
  button.click();
  await new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (!["idle", "running"].includes(section.dataset.engineCheck)) resolve(seen.disconnect());
    });
    seen.observe(section, { attributes: true });
  });
  watch.disconnect();
  return { ms: performance.now() - start, verdict: section.dataset.engineCheck, longest };
}"""


def widget_path():
    for page in sorted(SITE.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if "data-exercise-widget" in html and '"id":"diamond"' in html:
            return page.parent.relative_to(SITE).as_posix().strip(".") + "/"
    raise SystemExit("build the site first: make build")


def write(page, label, code):
    page.get_by_role("tab", name=label, exact=True).click()
    editor = page.get_by_role("tabpanel").locator('.cm-content[contenteditable="true"]')
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)


def timed(page, runs):
    page.get_by_role("tab", name="diamond", exact=True).click()
    return [page.evaluate(TIMED) for _ in range(runs)]


def main(runs=3):
    catalog = load_catalog()
    site = serve.start(str(SITE))
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=chromium.executable(), args=chromium.ARGS)
        page = browser.new_page()
        page.goto(site.url + widget_path().lstrip("/"))
        settled = page.locator("html[data-python-settled=true]")
        settled.wait_for(state="attached", timeout=TIMEOUT_MS)
        for op in OPS:
            write(page, catalog[op].label, catalog[op].solutions[op])
        found = {"references, 500 graphs": timed(page, runs)}
        write(page, "__mul__", WRONG_MUL)
        found["a wrong __mul__, found and shrunk"] = timed(page, runs)
        browser.close()
    site.stop()
    print(
        f"{'Check my whole engine (Chromium)':<40}{'median':>10}{'min-max':>18}{'longest task':>15}"
    )
    for name, samples in found.items():
        ms = [s["ms"] for s in samples]
        verdicts = {s["verdict"] for s in samples}
        longest = max(s["longest"] for s in samples)
        print(
            f"  {name:<38}{statistics.median(ms):>8,.0f} ms{min(ms):>8,.0f}–{max(ms):,.0f} ms"
            f"{longest:>12,.0f} ms  ({', '.join(sorted(verdicts))})"
        )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
