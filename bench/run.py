"""The benchmark: the course's exercise page against a bare Pyodide page, in headless Chromium.

    make bench        (or: .venv/bin/python bench/run.py --rounds 7 --runs 25)

Builds the site into bench/out/site/, serves it and bench/bare.html (Pyodide straight from
node_modules/pyodide/, `loadPyodide()` then one `runPython`) from one server on 127.0.0.1,
visits the pages under three networks, times runs and training, prints a table and writes
every sample to bench/results.json (BENCHMARK.md says what each figure means).
"""

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import microgpt_pace
import training_pace
from playwright.sync_api import sync_playwright
from report import KINDS, figures, print_table
from sizes import compressed, file_for, own_code, total
from visits import (
    READ_FIRST_MS,
    blocking,
    earlier_visit,
    fill_editors,
    lesson_load,
    long_tasks,
    run_after_reading,
    time_runs,
    visit,
)

from devtools import chromium, serve
from devtools.chromium import emulate_network
from grader.exercises import load_catalog

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
SITE = OUT / "site"
RESULTS = ROOT / "bench" / "results.json"
BARE_PATH = "bare/"
PYODIDE = ROOT / "node_modules" / "pyodide"
LESSON = "closures/"  # the lesson just before the exercise page
TRAINING = "training/"
LOCAL_GRADIENTS = "local-gradients/"
MICROGPT = "microgpt/"
LOOPBACK = "loopback"
PARTS = ("networks", "lesson", "runs", "training", "microgpt")
# DevTools' network emulation: Mbit/s, ms of latency (none: the machine's own loopback)
NETWORKS = {LOOPBACK: None, "20 Mbit/s, 40 ms": (20, 40), "5 Mbit/s, 100 ms": (5, 100)}
LESSON_STAY_MS = 20_000  # how long the "in order" learner reads the lesson
LESSON_WATCH_MS = 12_000  # the lesson's main thread is watched this long: past the loading ahead
# measureUserAgentSpecificMemory() at once, not at the next garbage collection
EAGER_MEMORY = "--enable-blink-features=ForceEagerMeasureMemory"
# Repeat visits take turns over this many profiles of each kind: V8 caches a WebAssembly
# module's optimized code a megabyte at a time (BENCHMARK.md), so one profile's repeat visits
# can be ~250 ms slower than another's until its cache is complete.
REPEAT_PROFILES = 3
# the probe's code is evaluated in the page, which the site's Content-Security-Policy forbids
CONTEXT = {"bypass_csp": True}
# the judge and a spare runner ready, nothing under way (the bare page has no such attribute)
SETTLED = "document.documentElement.dataset.pythonSettled !== 'false'"


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


def widget_page(site=SITE):
    """The path in `site` of the page whose widget has every tab (the one with diamond)."""
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if "data-exercise-widget" in html and '"id":"diamond"' in html:
            return page.parent.relative_to(site).as_posix().strip(".") + "/"
    sys.exit(f"no page of {site} holds the widget with a diamond tab")


def page_exercises(page):
    """The ids of the exercises on the widget page at `page`, in tab order."""
    html = (SITE / page / "index.html").read_text(encoding="utf-8")
    data = re.search(r"<template data-exercise-data>(.*?)</template>", html, re.S).group(1)
    return [exercise["id"] for exercise in json.loads(data)["exercises"]]


def chromium_path():
    path = chromium.executable()
    if path is None:
        sys.exit("Debian's chromium is not installed: run `make chromium`")
    return path


def launch_options():
    """How the benchmark starts Chromium: Debian's, headless, memory measured at once."""
    return {
        "executable_path": chromium_path(),
        "args": [*chromium.ARGS, EAGER_MEMORY],
        "headless": True,
    }


class Bench:
    def __init__(self, playwright, urls, launch, exercises, server):
        self.playwright, self.urls, self.launch = playwright, urls, launch
        self.exercises = exercises  # the widget page's, in tab order
        self.server = server  # the BenchServer: what it sent, for a private window's visit
        self.browser = playwright.chromium.launch(**launch)
        self.profiles = {
            kind: [tempfile.mkdtemp(prefix=f"bench-{kind}-") for _ in range(REPEAT_PROFILES)]
            for kind in KINDS
        }
        self.repeats = dict.fromkeys(KINDS, 0)  # repeat visits so far: whose turn it is

    @contextmanager
    def fresh_profile(self):
        """A browser with a new, empty profile: a learner's first visit. (Not a browser context:
        like a private window, it keeps its HTTP cache in memory, which did not keep Pyodide's
        WebAssembly here: the exercise page then fetched it again after a lesson had.)"""
        folder = tempfile.mkdtemp(prefix="bench-fresh-")
        context = self.playwright.chromium.launch_persistent_context(
            folder, **self.launch, **CONTEXT
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(folder, ignore_errors=True)

    def first_visit(self, kind, throttle=None):
        """A fresh profile: empty HTTP cache, no code cache. Also what the server sent
        (`sent`)."""
        with self.fresh_profile() as context:
            requests = []
            context.on("request", lambda request: requests.append(request.url))
            page = context.new_page()
            figures = self._visit_sending(page, kind, throttle)
            figures["memory"] = page.evaluate("__bench.memory()")
            return {**figures, "requests": requests}

    def private_visit(self, kind, throttle=None):
        """A new browser context, as a private window: an HTTP cache in memory only, and an
        empty one. Also what the server sent (`sent`)."""
        context = self.browser.new_context(**CONTEXT)
        try:
            return self._visit_sending(context.new_page(), kind, throttle)
        finally:
            context.close()

    def _visit_sending(self, page, kind, throttle):
        """A visit's figures, and what the server sent for the page until it settled after the
        runs (the judge and a spare runner, nothing under way): `downloads`, the most times one
        file was sent, and `sent_bytes`, as sent (gzipped where the server compresses)."""
        self.server.forget_sent()
        figures = visit(page, self.urls[kind], throttle=throttle, run=kind == "ours")
        page.wait_for_function(SETTLED)  # the last run's next spare has loaded too
        sent = dict(self.server.sent)
        sent_bytes = sum(self.server.sent_bytes.values())
        return {**figures, "downloads": max(sent.values()), "sent_bytes": sent_bytes}

    def repeat_visit(self, kind, throttle=None):
        """The next of `kind`'s profiles in turn, kept across visits, in a newly started
        browser."""
        with self.kept_profile(kind) as page:
            return visit(page, self.urls[kind], throttle=throttle, run=kind == "ours")

    def warm_up_visit(self, kind):
        """A learner's earlier visit (visits.py `earlier_visit`), in the next of `kind`'s
        profiles."""
        with self.kept_profile(kind) as page:
            earlier_visit(page, self.urls[kind], run=kind == "ours")

    @contextmanager
    def kept_profile(self, kind):
        """A page in a newly started browser with the next of `kind`'s profiles."""
        profiles = self.profiles[kind]
        profile = profiles[self.repeats[kind] % len(profiles)]
        self.repeats[kind] += 1
        context = self.playwright.chromium.launch_persistent_context(
            profile, **self.launch, **CONTEXT
        )
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()

    def in_order(self, throttle=None):
        """A fresh profile reads the lesson before the exercise page for LESSON_STAY_MS, then
        opens the exercise page and presses Run: the time to that first verdict."""
        with self.fresh_profile() as context:
            page = context.new_page()
            if throttle:
                emulate_network(page, *throttle)
            page.goto(self.urls["lesson"])
            page.wait_for_timeout(LESSON_STAY_MS)
            return visit(page, self.urls["ours"], run=True)

    def read_first(self):
        """A fresh profile opens the exercise page and reads it before the first Run."""
        with self.fresh_profile() as context:
            return run_after_reading(context.new_page(), self.urls["ours"])

    def lesson(self, ahead):
        """The lesson page's own load, with Python loaded ahead from it or not."""
        with self.fresh_profile() as context:
            page = context.new_page()
            return lesson_load(page, self.urls["lesson"], stay_ms=LESSON_WATCH_MS, ahead=ahead)

    def runs(self, count):
        """Run to verdict on every tab, with the reference answers, then with a known mistake."""
        known = load_catalog()
        catalog = {id_: known[id_] for id_ in self.exercises}
        context = self.browser.new_context(**CONTEXT)
        try:
            page = context.new_page()
            visit(page, self.urls["ours"])
            answers = {e.label: e.solutions[e.id] for e in catalog.values() if e.id in e.solutions}
            fill_editors(page, answers)
            since = page.evaluate("performance.now()")
            timings = {e.label: time_runs(page, e.label, count) for e in catalog.values()}
            mul = catalog["mul"]
            fill_editors(page, {mul.label: mul.known_wrong[0].bodies["mul"]})
            timings[f"{mul.label}, a known mistake"] = time_runs(page, mul.label, count)
            main_thread = blocking(long_tasks(page), since=since)
        finally:
            context.close()
        return {"verdict": timings, "main_thread": main_thread}

    def training(self):
        context = self.browser.new_context(**CONTEXT)
        try:
            return training_pace.in_browser(context, self.urls["ours"], self.urls["training"])
        finally:
            context.close()

    def microgpt(self):
        context = self.browser.new_context(**CONTEXT)
        try:
            return microgpt_pace.in_browser(
                context, self.urls["local_gradients"], self.urls["microgpt"]
            )
        finally:
            context.close()

    def close(self):
        self.browser.close()
        for profiles in self.profiles.values():
            for profile in profiles:
                shutil.rmtree(profile, ignore_errors=True)


def alternate(measure, rounds, label, kinds=KINDS):
    """`measure(kind)` for each of `kinds` in turn, `rounds` times, the order swapped each round."""
    samples = {kind: [] for kind in kinds}
    for round_ in range(rounds):
        for kind in kinds if round_ % 2 == 0 else reversed(kinds):
            samples[kind].append(measure(kind))
            print(
                f"  {label} {round_ + 1}/{rounds} {kind}: {brief(samples[kind][-1])}",
                file=sys.stderr,
            )
    return samples


def brief(sample):
    return ", ".join(
        f"{k} {v:.0f}" if isinstance(v, float) else f"{k} {v}"
        for k, v in sample.items()
        if k != "requests"
    )


def network(bench, throttle, rounds, label):
    """The four scenarios under one network: first visits, in a private window, repeat visits
    and in order."""
    return {
        "first": alternate(
            lambda kind: bench.first_visit(kind, throttle), rounds, f"{label} first visit"
        ),
        "private": alternate(
            lambda kind: bench.private_visit(kind, throttle), rounds, f"{label} private window"
        ),
        "repeat": alternate(
            lambda kind: bench.repeat_visit(kind, throttle), rounds, f"{label} repeat visit"
        ),
        "in_order": alternate(
            lambda _: bench.in_order(throttle), rounds, f"{label} in order", ("ours",)
        )["ours"],
        "throttle": throttle,  # (Mbit/s, ms of latency), or None
    }


def byte_figures(visit, site_url):
    files = [file_for(url, site_url, SITE) for url in visit["requests"] if url.startswith(site_url)]
    # each file once: the judge and the runner ask for the same files (the cache answers one)
    files = sorted({file for file in files if file.is_file()})
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


def arguments(argv):
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="visits of each page (default 7)")
    parser.add_argument("--runs", type=int, default=25, help="runs per tab (default 25)")
    parser.add_argument("--no-build", action="store_true", help="reuse bench/out/site/")
    parser.add_argument("--no-throttle", action="store_true", help="skip the throttled networks")
    parser.add_argument(
        "--no-compress",
        action="store_true",
        help="send files as stored (by default gzipped, as GitHub Pages and most hosts send them)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=PARTS,
        help="measure only this part (repeatable; default: every part)",
    )
    return parser.parse_args(argv)


def main(argv=None):
    args = arguments(argv)
    if not args.no_build:
        print("building the site into bench/out/site/ …", file=sys.stderr)
        build_site()
    add_bare_page()
    page = widget_page()
    compress = not args.no_compress
    server = serve.RunningSite(BenchServer(SITE, isolate=True, compress=compress, quiet=True))
    with server as site, sync_playwright() as playwright:
        urls = {
            "ours": site.url + page,
            "bare": site.url + BARE_PATH,
            "lesson": site.url + LESSON,
            "training": site.url + TRAINING,
            "local_gradients": site.url + LOCAL_GRADIENTS,
            "microgpt": site.url + MICROGPT,
        }
        bench = Bench(playwright, urls, launch_options(), page_exercises(page), server.server)
        try:
            raw = measure(bench, urls, args)
        finally:
            bench.close()
        raw["machine"]["compressed"] = compress
        results = {"machine": raw["machine"], **figures(raw), "samples": raw}
        if "networks" in raw:
            results["bytes"] = byte_figures(raw["networks"][LOOPBACK]["first"]["ours"][0], site.url)
    RESULTS.write_text(json.dumps(results, indent=1))
    print_table(results, RESULTS)


def rounds(args, throttle):
    """A throttled network's visits are slow: half as many, three at least."""
    return args.rounds if throttle is None else max(3, args.rounds // 2)


def measure(bench, urls, args):
    """Every part `args` asks for (`--only`, by default all), after warming each profile up."""
    parts = args.only or PARTS
    raw = {"machine": machine(bench.browser), "urls": urls}
    # two visits to each profile fill its HTTP cache, V8's code caches, our snapshots
    for kind in KINDS:
        for _ in range(2 * REPEAT_PROFILES):
            bench.warm_up_visit(kind)
    if "networks" in parts:
        networks = {LOOPBACK: None} if args.no_throttle else NETWORKS
        raw["networks"] = {
            label: network(bench, throttle, rounds(args, throttle), label)
            for label, throttle in networks.items()
        }
        raw["read_first"] = {
            "read_ms": READ_FIRST_MS,
            "ms": [bench.read_first() for _ in range(args.rounds)],
        }
    if "lesson" in parts:
        raw["lesson"] = alternate(
            lambda kind: bench.lesson(kind == "ahead"),
            max(3, args.rounds // 2),
            "lesson",
            ("ahead", "not"),
        )
    if "runs" in parts:
        print("run to verdict …", file=sys.stderr)
        raw["runs"] = bench.runs(args.runs)
    if "training" in parts:
        print("training …", file=sys.stderr)
        raw["training"] = {"chromium": bench.training(), "cpython": training_pace.in_cpython()}
    if "microgpt" in parts:
        print("microgpt …", file=sys.stderr)
        raw["microgpt"] = {"chromium": bench.microgpt(), "cpython": microgpt_pace.in_cpython()}
    return raw


if __name__ == "__main__":
    main()
