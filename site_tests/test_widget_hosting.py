"""The site as an instructor hosts it: every request stays on the site's own origin, it works
under a sub-path and with a host that sends WebAssembly as a generic download, Python shows its
download progress, and a run pressed early waits for it."""

import re
from urllib.parse import urlsplit

from conftest import SITE, assert_clean, learner_at
from learner import Learner
from playwright.sync_api import expect

from devtools import serve

STATUS_LOG = """
window.statusLog = [];
new MutationObserver(() => {
  const text = document.querySelector(".mg-status__text")?.textContent;
  if (text && text !== window.statusLog.at(-1)) window.statusLog.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_no_request_leaves_the_site(visit, exercises):
    learner, watch = visit()
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    hosts = {urlsplit(url).hostname for url in watch.requests}
    assert hosts == {"127.0.0.1"}, hosts
    paths = {urlsplit(url).path.rsplit("/", 1)[-1] for url in watch.requests}
    paths = {re.sub(r"^worker-\w+\.js$", "worker.js", path) for path in paths}
    # the worker's own downloads are among those watched
    assert {
        "worker.js",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "runner.zip",
        "grader.zip",
    } <= paths
    assert watch.blocked == []


def test_works_under_a_sub_path(visit, site_under_sub_path, exercises):
    learner, watch = visit(base_url=site_under_sub_path.url)
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    assert all(urlsplit(url).path.startswith("/course/") for url in watch.requests), [
        url for url in watch.requests if not urlsplit(url).path.startswith("/course/")
    ]


def test_status_shows_download_progress_and_a_run_pressed_early_waits(
    browser, site, widget_page, exercises
):
    context = browser.new_context()
    try:
        context.add_init_script(STATUS_LOG)
        learner = Learner(context.new_page(), site.url + widget_page.lstrip("/"))
        learner.open()
        learner.write(exercises["add"].solutions["add"])
        assert learner.run() == "pass"
        log = learner.page.evaluate("window.statusLog")
        ready = log.index("Python ready")
        progress = re.compile(r"Loading Python: \d+% of [\d.]+ MB")
        assert any(progress.fullmatch(text) for text in log[:ready]), log
        expect(learner.widget.locator(".mg-status__text")).to_have_text("Python ready")
    finally:
        context.close()


def test_progress_counts_right_on_a_host_that_compresses(browser, widget_page, exercises):
    """Bodies arrive decompressed: the share is of the files' own sizes, and the size stated
    is what the host sends (gzipped), not 100% while the largest file is still arriving."""
    with serve.start(SITE, compress=True) as site:
        context = browser.new_context()
        try:
            context.add_init_script(STATUS_LOG)
            learner = Learner(context.new_page(), site.url + widget_page.lstrip("/"))
            learner.open()
            learner.wait_until_python_ready()
            log = learner.page.evaluate("window.statusLog")
        finally:
            context.close()
    found = [re.fullmatch(r"Loading Python: (\d+)% of ([\d.]+) MB", text) for text in log]
    shares = [int(match[1]) for match in found if match]
    assert shares and shares == sorted(shares) and shares[-1] < 100, log
    stated = {float(match[2]) for match in found if match}
    raw = sum(path.stat().st_size for path in downloads()) / 1e6
    assert len(stated) == 1 and stated.pop() < 0.8 * raw, (log, raw)


def downloads():
    """The files a judge downloads: Pyodide's WebAssembly, the standard library, the archives."""
    assets = SITE / "assets"
    return [
        next(assets.glob("pyodide/*/pyodide.asm.wasm")),
        *assets.glob("python/*/python_stdlib.zip"),
        *assets.glob("python/*/runner.zip"),
        *assets.glob("python/*/grader.zip"),
    ]


class GenericTypesHandler(serve.SiteHandler):
    """A host that knows no `.wasm` type: Pyodide's WebAssembly comes as a generic download."""

    extensions_map = {**serve.SiteHandler.extensions_map, ".wasm": "application/octet-stream"}


def test_webassembly_served_with_a_generic_type_still_runs(browser, widget_page, exercises):
    with serve.start(SITE) as site:
        site.server.RequestHandlerClass = GenericTypesHandler
        learner, watch, close = learner_at(browser, site.url + widget_page.lstrip("/"))
        try:
            learner.open()
            assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
        finally:
            close()
    assert_clean(watch)


def test_a_page_opened_from_disk_says_the_site_must_be_served(browser, widget_page):
    """Opened as a file, Python cannot run (Chromium loads no module script from disk): each
    widget's place says so and how to serve the site, instead of staying empty."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto((SITE / widget_page / "index.html").as_uri())
        widget = page.locator("[data-exercise-widget]").first
        expect(widget).to_contain_text("opened from a file on disk")
        expect(widget.locator("code", has_text="http.server")).to_be_visible()
        expect(page.locator("[data-exercise-widget]:not([data-from-disk])")).to_have_count(0)
    finally:
        context.close()


def test_a_request_for_another_host_is_caught_and_reaches_nothing(fresh_page, shared_browser):
    """What the other tests' clean watch rests on: such a request is seen, and goes nowhere.
    (The site's own pages could not even ask: their policy allows only their origin; this one,
    the tests' blank page of the site, has none.)"""
    page = fresh_page()
    watch = shared_browser[1]
    outside = ["https://example.com/font.woff2", "http://192.0.2.1/pyodide.js"]
    results = page.evaluate(
        """(urls) => Promise.all(urls.map((url) =>
             fetch(url, { mode: "no-cors" }).then(() => "answered", () => "failed")))""",
        outside,
    )
    assert results == ["failed", "failed"]
    assert watch.blocked == outside
    refused = [error for error in watch.errors if "ERR_PROXY_CONNECTION_FAILED" in error]
    assert refused and refused == watch.errors, watch.errors
    watch.blocked.clear()  # seen, as it should be: not this test's failure
    watch.errors.clear()
