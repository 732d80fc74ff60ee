"""The service worker's cost to a learner (widget/isolate.js): the first verdict of a first visit
and of the repeat visit after it, with the service worker and without, from a host that
compresses (`devtools.serve --compress`) at 20 Mbit/s and 40 ms, in pairs of fresh profiles.

    .venv/bin/python bench/offline_pace.py [--rounds 3] [--site site]

With the service worker, the first visit's page stays until the worker holds the whole site
(it starts once Python is ready and the page idle), as a learner's would, before the browser
closes; the repeat visit is then answered from that copy.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright
from run import launch_options, widget_page
from visits import visit

from devtools import serve

THROTTLE = (20, 40)  # Mbit/s, ms
MODES = ("allow", "block")  # service workers: the course's, or none
PRECACHED = "navigator.serviceWorker.ready.then(() => caches.keys()).then((keys) => keys.length)"


def pair_of_visits(playwright, url, mode):
    """`(first visit's verdict ms, repeat visit's)` in a fresh profile, service workers `mode`."""
    folder = tempfile.mkdtemp(prefix="bench-offline-")
    try:
        verdicts = []
        for visit_number in range(2):
            context = playwright.chromium.launch_persistent_context(
                folder, **launch_options(), bypass_csp=True, service_workers=mode
            )
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_navigation_timeout(120_000)  # a busy machine, a slow network
            verdicts.append(visit(page, url, throttle=THROTTLE, run=True)["verdict_ms"])
            if visit_number == 0 and mode == "allow":
                assert page.evaluate(PRECACHED) == 1, "the service worker did not precache"
            context.close()
        return tuple(verdicts)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv=None):
    description = __doc__.split("\n")[0]
    parser = argparse.ArgumentParser(prog="bench/offline_pace.py", description=description)
    parser.add_argument("--rounds", type=int, default=3, help="pairs of visits per mode")
    parser.add_argument("--site", default="site", help="the built site (default: site)")
    args = parser.parse_args(argv)
    site_dir = Path(args.site)
    samples = {mode: [] for mode in MODES}
    with serve.start(site_dir, compress=True) as site, sync_playwright() as playwright:
        url = site.url + widget_page(site_dir)
        for _ in range(args.rounds):
            for mode in MODES:  # alternating: the machine's pace drifts
                samples[mode].append(pair_of_visits(playwright, url, mode))
                print(mode, samples[mode][-1], file=sys.stderr)
    print(f"first verdict, {THROTTLE[0]} Mbit/s, {THROTTLE[1]} ms, compressed: median (min–max)")
    for index, label in enumerate(("first visit", "repeat visit")):
        for mode, name in zip(MODES, ("with the service worker", "without"), strict=True):
            times = [pair[index] for pair in samples[mode]]
            print(
                f"  {label:<13} {name:<24} {statistics.median(times):>7,.0f} ms "
                f"({min(times):,.0f}–{max(times):,.0f} ms)"
            )


if __name__ == "__main__":
    main()
