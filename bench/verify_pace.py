"""How long a certificate takes to verify: a certificate of every exercise, each with its
reference code and a claimed pass, checked on the verify page (docs/verify.md) in a fresh
profile (first visit) and again after a reload (repeat visit), from choosing the file to the
last verdict shown; and by `python -m grader verify`, from start to exit.

    .venv/bin/python bench/verify_pace.py [--rounds 3] [--site site]

Figures, not assertions (BENCHMARK.md).
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from run import launch_options

from devtools import serve
from grader.exercises import catalog
from grader.handin import course_id, exercise_code_key

ROOT = Path(__file__).resolve().parent.parent
DONE = "document.querySelector('[data-verify-page]')?.dataset.verifyState === 'done'"


def every_pass():
    """A certificate's text: every exercise's reference code, every pass claimed."""
    exercises = catalog()
    code = {}
    for exercise in exercises.values():
        for op, body in exercise.solutions.items():
            code.setdefault(exercise_code_key(exercise, op), body)  # the op tabs' first
    found = {"format": "micrograd-work", "version": 1, "course": course_id(exercises)}
    found |= {"saved": "2026-11-28T10:00:00.000Z", "learner": "Ada Lovelace", "site": "bench"}
    found |= {"exercises": {e.id: e.version for e in exercises.values()}, "code": code}
    return json.dumps(found | {"tabs": {name: {"verdict": "pass"} for name in exercises}})


def page_check(page, path):
    """ms from choosing the file at `path` to the page's last verdict, and how many passed."""
    started = time.perf_counter()
    page.locator("[data-verify-page] input[type=file]").set_input_files(path)
    page.wait_for_function(DONE, timeout=180_000, polling=50)
    ms = (time.perf_counter() - started) * 1000
    return ms, page.locator("[data-verify-exercise][data-verdict=pass]").count()


def page_round(playwright, url, path):
    """`(first visit's ms, repeat visit's ms, passed)` in a fresh profile."""
    browser = playwright.chromium.launch(**launch_options())
    try:
        page = browser.new_context(bypass_csp=True).new_page()
        page.goto(url)
        first, _ = page_check(page, path)
        page.reload()
        repeat, passed = page_check(page, path)
        return first, repeat, passed
    finally:
        browser.close()


def command_check(path):
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "grader", "verify", str(path)], capture_output=True, cwd=ROOT
    )
    return (time.perf_counter() - started) * 1000, done.returncode


def line(label, times):
    spread = f"{min(times):,.0f}–{max(times):,.0f} ms"
    return f"  {label:<28} {statistics.median(times):>7,.0f} ms ({spread})"


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="bench/verify_pace.py", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--rounds", type=int, default=3, help="fresh profiles, and command runs")
    parser.add_argument("--site", default="site", help="the built site (default: site)")
    args = parser.parse_args(argv)
    path = Path(tempfile.mkdtemp(prefix="bench-verify-")) / "certificate.json"
    path.write_text(every_pass(), encoding="utf-8")
    count = len(catalog())
    with serve.start(Path(args.site)) as site, sync_playwright() as playwright:
        rounds = [page_round(playwright, site.url + "verify/", path) for _ in range(args.rounds)]
    commands = [command_check(path) for _ in range(args.rounds)]
    passed = {found for *_, found in rounds}
    print(f"a certificate of all {count} exercises, every pass claimed: median (min–max)")
    print(line("verify page, first visit", [first for first, _, _ in rounds]))
    print(line("verify page, repeat visit", [repeat for _, repeat, _ in rounds]))
    print(line("python -m grader verify", [ms for ms, _ in commands]))
    exits = sorted({code for _, code in commands})
    print(f"  passed on the page: {sorted(passed)} of {count}; the command's exits: {exits}")


if __name__ == "__main__":
    main()
