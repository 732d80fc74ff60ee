"""What the editors' code costs the main thread, two checkouts compared in pairs.

    .venv/bin/python bench/editor_cost.py CHECKOUT_A CHECKOUT_B [--rounds 20]

Each checkout's widget/src/editor/editor.js is bundled alone (bench/editor_cost.mjs, with this
checkout's node_modules: both must be installed here), and a page in a new browser context
(an empty cache, no code cache) times the bundle's import (fetched over loopback, compiled,
run) and `createEditor` on a closure body, the pair's order swapped each round. A checkout is
any folder with widget/src/, e.g. `git archive main widget/src | tar -x -C /tmp/a`. Prints
each build's medians and the median of the pairs' differences (B - A), in ms.
"""

import argparse
import statistics
import subprocess
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright
from run import launch_options

from devtools import serve

ROOT = Path(__file__).resolve().parent.parent
PAGE = """<!doctype html><meta charset="utf-8"><div id="parent"></div>
<script type="module">
const body = "if out.grad:  # why\\n    self.grad += (other.data * out.grad)\\n" +
  "else:\\n    other.grad += 2.0\\n";
const build = new URLSearchParams(location.search).get("build");
const t0 = performance.now();
const { createEditor } = await import(`./${build}.js`);
const t1 = performance.now();
const parent = document.getElementById("parent");
createEditor({ parent, doc: body, label: "code", onChange() {}, onRun() {} });
const t2 = performance.now();
window.found = { import_ms: t1 - t0, create_ms: t2 - t1, total_ms: t2 - t0 };
</script>"""
FIGURES = ("import_ms", "create_ms", "total_ms")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("checkouts", nargs=2, type=Path, metavar="CHECKOUT")
    parser.add_argument("--rounds", type=int, default=20, help="pairs of visits (default 20)")
    args = parser.parse_args()
    found = {"A": [], "B": []}
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            ["node", "bench/editor_cost.mjs", folder, *map(str, args.checkouts)],
            cwd=ROOT,
            check=True,
        )
        Path(folder, "index.html").write_text(PAGE, encoding="utf-8")
        with serve.start(folder) as site, sync_playwright() as playwright:
            browser = playwright.chromium.launch(**launch_options())
            for i in range(args.rounds):
                for build in "AB" if i % 2 == 0 else "BA":
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(f"{site.url}index.html?build={build}")
                    found[build].append(page.wait_for_function("window.found").json_value())
                    context.close()
            browser.close()
    for build, checkout in zip("AB", args.checkouts, strict=True):
        medians = {name: statistics.median(f[name] for f in found[build]) for name in FIGURES}
        print(f"{build} ({checkout}): {said(medians)}")
    pairs = zip(found["A"], found["B"], strict=True)
    differences = [{name: b[name] - a[name] for name in FIGURES} for a, b in pairs]
    medians = {name: statistics.median(d[name] for d in differences) for name in FIGURES}
    print(f"B - A, median of the pairs: {said(medians, '+')}")


def said(figures, sign=""):
    return ", ".join(f"{name.removesuffix('_ms')} {figures[name]:{sign}.1f} ms" for name in FIGURES)


if __name__ == "__main__":
    main()
