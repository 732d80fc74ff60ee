"""The benchmark: the course's exercise page against a bare Pyodide page, in headless Chromium.

    make bench        (or: .venv/bin/python bench/run.py --rounds 7 --runs 25)

Builds the site into bench/out/site/, serves it and bench/bare.html (Pyodide straight from
node_modules/pyodide/, `loadPyodide()` then one `runPython`) from one server on 127.0.0.1,
visits the two pages in turn, prints a table and writes every sample to bench/results.json.
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader.catalog import load_catalog
from playwright.sync_api import sync_playwright
from report import KINDS, figures, print_table
from sizes import compressed, file_for, own_code, total
from visits import blocking, fill_editors, long_tasks, time_runs, visit

from devtools import chromium, serve

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
SITE = OUT / "site"
RESULTS = ROOT / "bench" / "results.json"
BARE_PATH = "bare/"
PYODIDE = ROOT / "node_modules" / "pyodide"
THROTTLE = (20, 40)  # Mbit/s, ms of latency
# A learner reads on after Python is ready: what a page saves once it has started (the browser's
# code caches, our memory snapshot) is written by then. The timed visits close at once.
WARM_UP_STAY_MS = 3000
# the probe's code is evaluated in the page, which the site's Content-Security-Policy forbids
CONTEXT = {"bypass_csp": True}


class BenchServer(serve.SiteServer):
    # the bare page's Pyodide gets the same long-lived cache headers as the site's
    long_lived = (*serve.LONG_LIVED, f"{BARE_PATH}pyodide/")


def build_site():
    """`mkdocs build` into bench/out/site/."""
    mkdocs = Path(sys.executable).parent / "mkdocs"
    build = [mkdocs, "build", "--strict", "--quiet", "--site-dir", SITE]
    quiet = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's end-of-life banner
    subprocess.run(build, cwd=ROOT, check=True, env=quiet)


def add_bare_page():
    """bench/bare.html at bare/, with node_modules/pyodide/ linked beside it."""
    bare = SITE / BARE_PATH
    bare.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "bench" / "bare.html", bare / "index.html")
    link = bare / "pyodide"
    if not link.is_symlink():
        link.symlink_to(PYODIDE, target_is_directory=True)


def widget_page():
    """The site path of the page whose widget has every tab (the one with diamond)."""
    for page in sorted(SITE.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if "data-exercise-widget" in html and '"id":"diamond"' in html:
            return page.parent.relative_to(SITE).as_posix().strip(".") + "/"
    sys.exit(f"no page of {SITE} holds the widget with a diamond tab")


def chromium_path():
    path = chromium.executable()
    if path is None:
        sys.exit("Debian's chromium is not installed: run `make chromium`")
    return path


class Bench:
    def __init__(self, playwright, urls, launch):
        self.playwright, self.urls, self.launch = playwright, urls, launch
        self.browser = playwright.chromium.launch(**launch)
        self.profiles = {kind: tempfile.mkdtemp(prefix=f"bench-{kind}-") for kind in KINDS}

    def first_visit(self, kind, throttle=None):
        """A fresh context: empty HTTP cache, no code cache."""
        context = self.browser.new_context(**CONTEXT)
        requests = []
        context.on("request", lambda request: requests.append(request.url))
        try:
            figures = visit(context.new_page(), self.urls[kind], throttle=throttle)
        finally:
            context.close()
        return {**figures, "requests": requests}

    def repeat_visit(self, kind, stay_ms=0):
        """The same profile as every earlier visit of `kind`, in a newly started browser; the
        page stays open `stay_ms` after Python is ready."""
        context = self.playwright.chromium.launch_persistent_context(
            self.profiles[kind], **self.launch, **CONTEXT
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            figures = visit(page, self.urls[kind])
            page.wait_for_timeout(stay_ms)
            return figures
        finally:
            context.close()

    def runs(self, count):
        """Run to verdict on every tab, with the reference answers, then with a known mistake."""
        catalog = load_catalog()
        context = self.browser.new_context(**CONTEXT)
        try:
            page = context.new_page()
            visit(page, self.urls["ours"])
            answers = {e.label: e.solutions[e.id] for e in catalog.values() if e.id in e.solutions}
            fill_editors(page, answers)
            since = page.evaluate("performance.now()")
            timings = {e.label: time_runs(page, e.label, count) for e in catalog.values()}
            mul = catalog["mul"]
            fill_editors(page, {mul.label: mul.mistakes[0].bodies["mul"]})
            timings[f"{mul.label}, a known mistake"] = time_runs(page, mul.label, count)
            main_thread = blocking(long_tasks(page), since=since)
        finally:
            context.close()
        return {"verdict": timings, "main_thread": main_thread}

    def close(self):
        self.browser.close()
        for profile in self.profiles.values():
            shutil.rmtree(profile, ignore_errors=True)


def alternate(measure, rounds, label):
    """`measure(kind)` for ours and bare in turn, `rounds` times, the order swapped each round."""
    samples = {kind: [] for kind in KINDS}
    for round_ in range(rounds):
        for kind in KINDS if round_ % 2 == 0 else reversed(KINDS):
            samples[kind].append(measure(kind))
            print(
                f"  {label} {round_ + 1}/{rounds} {kind}: {samples[kind][-1]['ready_ms']:.0f} ms",
                file=sys.stderr,
            )
    return samples


def byte_figures(visit, site_url):
    files = [file_for(url, site_url, SITE) for url in visit["requests"] if url.startswith(site_url)]
    files = [file for file in files if file.is_file()]
    sizes = compressed(files)
    own = own_code(files, [SITE / "assets" / "pyodide", PYODIDE])
    return {
        "own_js_css": total(sizes, own),
        "own_js_css_files": {str(f.relative_to(SITE)): sizes[f] for f in sorted(own)},
        "first_visit": total(sizes, files),
    }


def machine(browser):
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "chromium": browser.version,
        "pyodide": json.loads((PYODIDE / "package.json").read_text())["version"],
        "load_average_at_start": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="visits of each page (default 7)")
    parser.add_argument("--runs", type=int, default=25, help="runs per tab (default 25)")
    parser.add_argument("--no-build", action="store_true", help="reuse bench/out/site/")
    parser.add_argument("--no-throttle", action="store_true", help="skip the throttled visits")
    args = parser.parse_args(argv)

    if not args.no_build:
        print("building the site into bench/out/site/ …", file=sys.stderr)
        build_site()
    add_bare_page()
    page = widget_page()
    launch = {"executable_path": chromium_path(), "args": chromium.ARGS, "headless": True}
    server = serve.RunningSite(BenchServer(SITE, quiet=True))
    with server as site, sync_playwright() as playwright:
        urls = {"ours": site.url + page, "bare": site.url + BARE_PATH}
        bench = Bench(playwright, urls, launch)
        try:
            raw = {"machine": machine(bench.browser), "urls": urls}
            raw["first"] = alternate(bench.first_visit, args.rounds, "first visit")
            for kind in KINDS:  # two visits fill the HTTP cache and V8's code caches
                bench.repeat_visit(kind, WARM_UP_STAY_MS)
                bench.repeat_visit(kind, WARM_UP_STAY_MS)
            raw["repeat"] = alternate(bench.repeat_visit, args.rounds, "repeat visit")
            if not args.no_throttle:
                throttled = max(3, args.rounds // 2)
                raw["throttled"] = alternate(
                    lambda kind: bench.first_visit(kind, THROTTLE), throttled, "throttled visit"
                )
            print("run to verdict …", file=sys.stderr)
            raw["runs"] = bench.runs(args.runs)
        finally:
            bench.close()
        results = {
            "machine": raw["machine"],
            **figures(raw),
            "bytes": byte_figures(raw["first"]["ours"][0], site.url),
            "samples": raw,
        }
    RESULTS.write_text(json.dumps(results, indent=1))
    print_table(results, f"{THROTTLE[0]} Mbit/s {THROTTLE[1]} ms", RESULTS)


if __name__ == "__main__":
    main()
