"""Two builds of the site, compared on repeat visits in pairs: one server, one origin, the site
folder swapped between the two visits of a pair, in the same browser profile.

    .venv/bin/python bench/compare.py SITE_A SITE_B [--rounds 15] [--profiles 3] [--first]

With `--first`, first visits instead: each visit of a pair in a new, empty profile, and five
more figures: the first verdict after Python ready, its part from its result to the screen
("drawn"), the median of the runs back to back, the widget shown (`widgets-mounted`) and the
main thread's longest task until Python is ready.

Why pairs: a repeat visit's time depends on its profile's caches, V8's WebAssembly code cache
above all (BENCHMARK.md), by up to ~300 ms, more than most changes are worth. Two builds served
at one origin share each profile's caches (Pyodide's files are the same bytes at the same
URLs; the course's own files are revalidated, so each visit gets its build's), and the
difference within a pair is the builds'. Prints each pair, then each build's medians and the
median of the differences, for Python ready and the first verdict.

The builds share the origin's memory snapshots too, one per role: builds whose Python files
differ replace each other's at every visit, and start Python from scratch (the visits not
restored are counted).
"""

import argparse
import statistics
import tempfile
from contextlib import nullcontext
from pathlib import Path

from playwright.sync_api import sync_playwright
from run import CONTEXT, BenchServer, launch_options, widget_page
from visits import earlier_visit, visit

from devtools import serve

BUILDS = ("A", "B")
FIGURES = ("ready_ms", "verdict_ms")
FIRST_FIGURES = (
    *FIGURES,
    "after_ready_ms",
    "drawn_ms",
    "back_to_back_ms",
    "mounted_ms",
    "longest_task_ms",
)


class Pairs:
    """Visits of the builds at `roots` ({build: site folder}), served from one origin."""

    def __init__(self, playwright, server, url, roots):
        self.playwright, self.server, self.url, self.roots = playwright, server, url, roots
        self.launch = launch_options()

    def open(self, build, profile):
        self.server.root = self.roots[build]  # read at each request
        return self.playwright.chromium.launch_persistent_context(profile, **self.launch, **CONTEXT)

    def warm_up(self, build, profile):
        """A learner's earlier visit, as the benchmark's."""
        context = self.open(build, profile)
        earlier_visit(context.pages[0], self.url, run=True)
        context.close()

    def pair(self, profile, order):
        """One visit of each build in `profile`, in `order`, or each in a new profile if
        `profile` is None: `{build: figures}`."""
        found = {}
        for build in order:
            with nullcontext(profile) if profile else tempfile.TemporaryDirectory() as folder:
                context = self.open(build, folder)
                found[build] = visit(context.pages[0], self.url, run=True)
                context.close()
            found[build]["back_to_back_ms"] = statistics.median(found[build]["back_to_back_ms"])
        return found


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("sites", nargs=2, type=Path, metavar="SITE", help="two built sites")
    parser.add_argument("--rounds", type=int, default=15, help="pairs of visits (default 15)")
    parser.add_argument("--profiles", type=int, default=3, help="profiles in turn (default 3)")
    parser.add_argument("--first", action="store_true", help="first visits, in new profiles")
    args = parser.parse_args()
    figures = FIRST_FIGURES if args.first else FIGURES
    roots = {build: str(site.resolve()) for build, site in zip(BUILDS, args.sites, strict=True)}
    server = BenchServer(roots["A"], isolate=True, quiet=True)
    pairs = []
    with (
        serve.RunningSite(server) as site,
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as folder,
    ):
        visits = Pairs(playwright, server, site.url + widget_page(args.sites[0]), roots)
        profiles = [None] if args.first else [Path(folder, str(i)) for i in range(args.profiles)]
        if not args.first:
            for profile in profiles:  # each build's earlier visit, in every profile
                for build in BUILDS:
                    visits.warm_up(build, profile)
        for i in range(args.rounds):
            order = BUILDS if i % 2 == 0 else BUILDS[::-1]
            pairs.append(visits.pair(profiles[i % len(profiles)], order))
            said = "; ".join(f"{b} {said_figures(pairs[-1][b], figures)}" for b in BUILDS)
            print(f"pair {i + 1}: {said}", flush=True)
    for build, site in zip(BUILDS, args.sites, strict=True):
        medians = {name: statistics.median(p[build][name] for p in pairs) for name in figures}
        print(f"{build} ({site}): {said_figures(medians, figures)}")
    differences = {
        name: statistics.median(p["B"][name] - p["A"][name] for p in pairs) for name in figures
    }
    print(f"B - A, median of the pairs: {said_figures(differences, figures, sign='+')}")
    unrestored = sum(not p[build]["restored"] for p in pairs for build in BUILDS)
    if unrestored and not args.first:
        print(f"{unrestored} visits did not restore Python from a memory snapshot")


NAMES = {
    "ready_ms": "ready",
    "verdict_ms": "first verdict",
    "after_ready_ms": "after ready",
    "drawn_ms": "drawn",
    "back_to_back_ms": "back to back",
    "mounted_ms": "widget shown",
    "longest_task_ms": "longest task",
}


def said_figures(found, figures, sign=""):
    return ", ".join(f"{NAMES[name]} {found[name]:{sign}.0f} ms" for name in figures)


if __name__ == "__main__":
    main()
