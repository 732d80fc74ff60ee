"""The site step: what a built course needs besides its pages, for either generator.

MkDocs runs it from the `course` plugin once its pages are written (`on_post_build`); with
Zensical, which runs no plugin, it is a command of its own after the build:

    zensical build --clean && python -m course.site

It copies the assets (course/assets.py: Pyodide, the Python archives, the widget's bundle, the
check graphs) and KaTeX's fonts into the site, then finishes every page: Python's early start
in the <head> of a page with a widget, and the Content-Security-Policy; last, it names the
deploy in every page and lists its files for the service worker (course/offline.py).
Pages being converted need some of what it builds (Python's download size, the graphs' file
names), so the assets are built once a process into a staging folder, and copied from there.
"""

import argparse
import atexit
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from grader.exercises import ExerciseError, load_catalog

from . import assets, csp, lessons, offline, record
from .check_graphs import write_check_graphs
from .exercise_checks import ExerciseCheckError, check_exercises
from .options import OptionsError, read_config, read_nav
from .prerender import PrerenderError
from .series import SeriesError, check_series
from .spoilers import SpoilerError, check_spoilers

# an exercise widget's data: its tabs. "Check my whole engine" on its own (```engine-check) holds
# a design's op tabs in the same template, for their saved code, but shows none of them
EXERCISE_TABS = re.compile(
    r"<div [^>]*\bdata-exercise-widget\b[^>]*>\s*"
    r"<template data-exercise-data>(.*?)</template>",
    re.S,
)
SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.I)
CSP_META = 'http-equiv="Content-Security-Policy"'
EARLY_START = "<script data-worker="


class SiteError(RuntimeError):
    """Something the course cannot build; the message says what to do."""


def download_text(size):
    """`size` (assets.download_size) said for a learner."""
    mb = lambda n: f"{n / 1e6:.1f} MB"  # noqa: E731
    return f"{mb(size['gzip'])} ({mb(size['raw'])} from a host that does not compress)"


class Course:
    """A course as one build sees it: its folder, its options, its exercises, and its assets,
    built on first need."""

    _known = {}  # (root, options) -> Course: each page of a build asks

    @classmethod
    def of(cls, root, options):
        key = (Path(root).resolve(), options)
        if key not in cls._known:
            cls._known[key] = cls(*key)
        return cls._known[key]

    @classmethod
    def forget(cls):
        """A new build (`mkdocs serve` after an edit): build the assets again."""
        for course in cls._known.values():
            course.drop_stage()
        cls._known.clear()

    def __init__(self, root, options):
        self.root = root
        self.options = options
        exercises = root / "exercises"
        if not exercises.is_dir():
            raise SiteError(f"{exercises} is missing: the course reads its exercises there")
        try:
            self.catalog = load_catalog(exercises)
            check_exercises(self.catalog)
        except (ExerciseError, ExerciseCheckError) as error:
            raise SiteError(str(error)) from error
        self._stage = None
        self._download = None
        self._graphs = None

    def python_download(self):
        """The size of Python's first download, as a learner reads it."""
        self._build()
        return self._download

    def graphs(self):
        """`{exercise id: its check graphs' file}` (course/check_graphs.py)."""
        self._build()
        return self._graphs

    def write_site(self, site_dir, nav=None):
        """Copy the assets into `site_dir` and finish its pages; `nav` (mkdocs.yml's) orders
        the course map of the record pages (course/record.py)."""
        self._build()
        site_dir = Path(site_dir)
        shutil.copytree(self._stage, site_dir, dirs_exist_ok=True)
        try:
            lessons.copy_katex(self.root, site_dir)
        except lessons.LessonError as error:
            raise SiteError(str(error)) from error
        pages = {
            page: page.read_text(encoding="utf-8") for page in sorted(site_dir.rglob("*.html"))
        }
        tabs = {page: _tab_data(text) for page, text in pages.items()}
        shown = {
            page.relative_to(site_dir).as_posix(): (record.page_title(pages[page]), found)
            for page, found in tabs.items()
            if found
        }
        course_map = record.course_map(shown, nav, self.options.time_limit)
        for page, text in pages.items():
            _check_widgets_load(text, page.relative_to(site_dir))
            folder = page.parent.relative_to(site_dir).as_posix()
            finished = record.fill_map(self.finish_page(text, folder, site_dir), course_map)
            if finished != text:
                page.write_text(finished, encoding="utf-8")
        if self.options.every_exercise_shown:
            _check_every_exercise_shown(self.catalog, {e["id"] for f in tabs.values() for e in f})
        offline.seal(self.root, site_dir, service_worker=self.options.service_worker)

    def finish_page(self, text, folder, site_dir):
        """A page's HTML with Python's early start and its policy, once (the step may run again
        on a site it finished)."""
        if EARLY_START not in text:
            text = assets.start_python_early(text, folder, site_dir)
        if self.options.content_security_policy and CSP_META not in text:
            text = csp.add_policy(text)
        return text

    def drop_stage(self):
        if self._stage is not None:
            shutil.rmtree(self._stage, ignore_errors=True)
            self._stage = None

    def _build(self):
        if self._stage is not None:
            return
        stage = Path(tempfile.mkdtemp(prefix="course-site-"))
        atexit.register(shutil.rmtree, stage, ignore_errors=True)
        snapshot = self.options.memory_snapshot
        try:
            downloads = assets.build(self.root, stage, self.catalog, snapshot=snapshot)
            self._graphs = write_check_graphs(self.root, stage, self.catalog)
        except (assets.AssetError, PrerenderError) as error:
            raise SiteError(str(error)) from error
        self._download = download_text(assets.download_size(downloads))
        self._stage = stage


def _tab_data(text):
    """The data of each exercise whose tab a built page's exercise widgets show: those its
    blocks name, and the op tabs a graph exercise brings (course/widget_data.py)."""
    return [
        exercise
        for data in EXERCISE_TABS.findall(text)
        for exercise in json.loads(data)["exercises"]
    ]


def _check_every_exercise_shown(catalog, shown):
    """An exercise no page shows is one an author forgot to place: nothing else would say so.
    Shown means a tab a learner can open, for every kind: an op's code that only "Check my whole
    engine" or a trainer runs is code the learner has nowhere to write."""
    missing = [name for name in catalog if name not in shown]
    if missing:
        one = len(missing) == 1
        raise SiteError(
            f"exercises/{missing[0]}/exercise.toml: no page shows the "
            f"{'tab of exercise' if one else 'tabs of exercises'} {', '.join(missing)}: name "
            f"{'it' if one else 'each'} in an ```exercise block (an op's tab also comes with a "
            "graph exercise that runs it; AUTHORING.md), or delete "
            f"{'its folder' if one else 'their folders'}, or set every_exercise_shown: false "
            "under course in mkdocs.yml"
        )


def _check_widgets_load(text, page):
    """A page with a widget loads the widget's script, as a module, and its styles: mkdocs.yml
    names them for both generators, and nothing else would say they are missing."""
    if not any(widget in text for widget in assets.WIDGETS):
        return
    scripts = [tag for tag in SCRIPT_TAG.findall(text) if assets.WIDGET_JS in tag]
    if not any('type="module"' in tag for tag in scripts):
        raise SiteError(
            f"{page}: its widgets need {assets.WIDGET_JS} as a module: list it under "
            "extra_javascript in mkdocs.yml with `type: module` (HOSTING.md)"
        )
    if assets.WIDGET_CSS not in text:
        raise SiteError(
            f"{page}: its widgets need {assets.WIDGET_CSS}: list it under extra_css in mkdocs.yml"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m course.site", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--config-file", default="mkdocs.yml", help="default: mkdocs.yml")
    parser.add_argument("--site-dir", help="the built site (default: the config's site_dir)")
    args = parser.parse_args(argv)
    try:
        options, built = read_config(args.config_file)
        site_dir = Path(args.site_dir or built)
        if not (site_dir / "index.html").is_file():
            raise SiteError(f"{site_dir} holds no built site: build it first")
        docs_dir, nav = read_nav(args.config_file)
        check_series(docs_dir, nav)
        folder = Path(args.config_file).resolve().parent
        course = Course.of(options.course_root(folder), options)
        check_spoilers(docs_dir, nav, course.catalog, course.root)
        course.write_site(site_dir, nav)
    except (OptionsError, SiteError, SeriesError, SpoilerError) as error:
        print(f"course: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
