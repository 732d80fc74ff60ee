"""The built site (`make build` writes site/; set SITE_DIR to test another build), served on
127.0.0.1, in Debian's Chromium (its headless shell: devtools/chromium.py).

Every browser context is watched (see learner.Watch); when a test ends, its pages must have
made no request outside 127.0.0.1 and logged no console error. No such request can leave, a
watched context's or not: every browser's proxy is a port that refuses connections (`nowhere`),
and Chromium never sends loopback through a proxy.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from learner import Learner, Watch
from playwright.sync_api import expect

from devtools import chromium, serve
from grader.exercises import load_catalog

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("SITE_DIR") or ROOT / "site")
SUB_PATH = "/course/"
# on a busy two-core machine what the page does may take longer than Playwright's 5 s default
# (a test that passes waits no longer for it)
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def nowhere():
    """A port of 127.0.0.1 bound for the session and never listened on: it refuses every
    connection, so the browsers' proxy there lets nothing out."""
    with socket.socket() as refusing:
        refusing.bind(("127.0.0.1", 0))
        yield refusing.getsockname()[1]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, nowhere):
    path = chromium.headless_shell()
    if path is None:
        pytest.exit("Debian's chromium-headless-shell is missing: run `make browsers`")
    args = [*chromium.SHELL_ARGS, f"--proxy-server=http://127.0.0.1:{nowhere}"]
    return {**browser_type_launch_args, "executable_path": path, "args": args}


@pytest.fixture(scope="session")
def widget_page():
    """The site path of the page whose widget has every tab (the one ending in diamond)."""
    if not (SITE / "index.html").is_file():
        pytest.exit(f"{SITE} is not built: run `make build` first")
    for page in sorted(SITE.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if "data-exercise-widget" in html and '"id":"diamond"' in html:
            return page.parent.relative_to(SITE).as_posix().strip(".") + "/"
    pytest.exit(f"no page of {SITE} holds the exercise widget with a diamond tab")


@pytest.fixture(scope="session")
def site():
    with serve.start(SITE) as running:
        yield running


@pytest.fixture(scope="session")
def site_under_sub_path():
    with serve.start(SITE, base=SUB_PATH) as running:
        yield running


@pytest.fixture(scope="session")
def instant_site(tmp_path_factory):
    """The site built for the address it is served at, which turns instant navigation on."""
    folder = tmp_path_factory.mktemp("instant-site")
    with serve.start(folder) as running:
        mkdocs = Path(sys.executable).with_name("mkdocs")
        env = {**os.environ, "SITE_URL": running.url, "NO_MKDOCS_2_WARNING": "1"}
        subprocess.run(
            [str(mkdocs), "build", "--quiet", "--site-dir", str(folder)],
            cwd=ROOT,
            env=env,
            check=True,
        )
        yield running


@pytest.fixture(scope="session")
def exercises():
    return load_catalog()


def quiz_page(kind):
    """The site path of the first page with a quiz of `kind` (choice or number)."""
    for page in sorted(SITE.glob("**/index.html")):
        if f'data-kind="{kind}"' in page.read_text(encoding="utf-8"):
            return page.parent.relative_to(SITE).as_posix().strip(".") + "/"
    pytest.fail(f"no page of {SITE} has a {kind} quiz")


def learner_at(browser, url, **context_args):
    """A fresh browser context (its own storage) at `url`: `(learner, watch, close)`; of
    `browser`, or of `kept_profiles` for a browser whose files are cached as a learner's are.
    Service workers are blocked unless `service_workers="allow"`: Playwright cannot watch the
    requests that the site's service worker (isolate.js) answers."""
    context_args.setdefault("service_workers", "block")
    context = browser.new_context(**context_args)
    watch = Watch(context)
    page = context.pages[0] if context.pages else context.new_page()  # a kept profile's window
    return Learner(page, url), watch, context.close


def assert_clean(watch):
    assert watch.blocked == [], f"requests left 127.0.0.1: {watch.blocked}"
    assert watch.errors == [], f"errors in the browser: {watch.errors}"


@pytest.fixture
def visit(browser, site, widget_page):
    """Opens fresh visitors to the widget page: `visit(**context_args) -> (learner, watch)`;
    `before_open(learner)` is called once its context is made, before the page is opened."""
    opened = []

    def open_visit(base_url=None, before_open=None, **context_args):
        url = (base_url or site.url) + widget_page.lstrip("/")
        learner, watch, close = learner_at(browser, url, **context_args)
        opened.append((watch, close))
        if before_open:
            before_open(learner)
        return learner.open(), watch

    yield open_visit
    for watch, close in opened:
        close()
        assert_clean(watch)


# what a learner leaves in the course's localStorage (work, name, quiz answers, palette): all but
# the digests of Python's memory snapshots (widget/src/python/snapshot-digest.js)
FORGET_THE_LEARNER = """() => {
  for (const key of Object.keys(localStorage))
    if (!/^micrograd:.*:python-snapshot:/.test(key)) localStorage.removeItem(key);
}"""


class KeptProfiles:
    """Opens browsers of their own whose profile is kept on disk, as a learner's browser keeps
    one, where a context of `browser` is a private window: `new_context(**context_args)`, as a
    Playwright browser's. Their HTTP cache holds Pyodide's WebAssembly (too big for a private
    window's cache in memory) and V8 keeps the code it compiled, so a page after the first costs
    about half the CPU. Each is closed at the end of the session, if its test has not."""

    def __init__(self, browser_type, launch_args, folders):
        self.browser_type, self.launch_args, self.folders = browser_type, launch_args, folders
        self.opened = []

    def new_context(self, **context_args):
        context = self.browser_type.launch_persistent_context(
            self.folders.mktemp("profile"), **self.launch_args, **context_args
        )
        self.opened.append(context)
        return context


@pytest.fixture(scope="session")
def kept_profiles(browser_type, browser_type_launch_args, tmp_path_factory):
    profiles = KeptProfiles(browser_type, browser_type_launch_args, tmp_path_factory)
    yield profiles
    for context in profiles.opened:
        context.close()


@pytest.fixture(scope="session")
def shared_browser(kept_profiles):
    """One watched browser context that every `fresh_page` shares: `(context, watch)`."""
    context = kept_profiles.new_context(service_workers="block")
    watch = Watch(context)
    yield context, watch
    context.close()
    assert_clean(watch)


@pytest.fixture
def fresh_page(shared_browser, site):
    """`fresh_page(viewport=None, site_url=None) -> page`: a new page of the context the tests
    share, at a blank page of the site (or of the one at `site_url`), once what earlier pages left
    in its localStorage is removed, all but Python's snapshot digests: a visitor with no work
    (no code, progress, name or quiz answers), whose Python starts from the memory snapshot an
    earlier page saved (as a returning learner's does, test_python_snapshot.py), and whose
    browser has the site's files and their compiled code at hand (`KeptProfiles`): the
    exercise page settles on ~1.6 CPU-seconds here, where a fresh context's takes ~4.3. Not for
    a test of how Python loads (from which files or memory), nor of what two browsers do. As
    the test ends, the context's pages are closed (a second tab it opened too) and its requests
    and errors checked."""
    context, watch = shared_browser

    def open_page(viewport=None, site_url=None):
        page = context.new_page()
        if viewport:
            page.set_viewport_size(viewport)
        forget_the_learner(page, site_url or site.url)
        return page

    yield open_page
    for page in context.pages:  # a second tab a test opened too
        page.close()
    try:
        assert_clean(watch)
    finally:  # the next test's are its own
        for seen in (watch.requests, watch.blocked, watch.errors):
            seen.clear()


@pytest.fixture
def new_visitor(fresh_page, shared_browser, site, widget_page):
    """Opens visitors with no work to the widget page, as `visit` does, `new_visitor(viewport=None)
    -> (learner, watch)`, but each on a `fresh_page`."""

    def open_visit(viewport=None):
        learner = Learner(fresh_page(viewport), site.url + widget_page.lstrip("/"))
        return learner.open(), shared_browser[1]

    return open_visit


def forget_the_learner(page, site_url):
    """Empties the site's localStorage but for Python's snapshot digests, from a blank page of
    the site's origin (answered here, not by the site)."""
    blank = site_url + "blank-page-of-the-tests"
    page.route(blank, lambda route: route.fulfill(content_type="text/html", body=""))
    page.goto(blank)
    page.evaluate(FORGET_THE_LEARNER)
    page.unroute(blank)


@pytest.fixture(scope="module")
def learner(browser, site, widget_page):
    """One page shared by a module's tests: Python loads once (~3 s) instead of per test."""
    learner, watch, close = learner_at(browser, site.url + widget_page.lstrip("/"))
    yield learner.open()
    close()
    assert_clean(watch)


@pytest.fixture(scope="module")
def local_learner(browser, site):
    """One page of the local-gradients widget (docs/local-gradients.md), shared by a module."""
    for page in sorted(SITE.rglob("*.html")):
        if '"id":"local-graphs"' in page.read_text(encoding="utf-8"):
            path = page.parent.relative_to(SITE).as_posix() + "/"
            break
    else:
        pytest.fail("no page holds the local-gradients widget")
    learner, watch, close = learner_at(browser, site.url + path)
    learner.page.goto(learner.url)
    learner.tab("graphs").wait_for()
    yield learner
    close()
    assert_clean(watch)
