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
        progress = re.compile(r"Loading Python: [\d.]+ of [\d.]+ MB")
        assert any(progress.fullmatch(text) for text in log[:ready]), log
        expect(learner.widget.get_by_text("Python ready")).to_be_visible()
    finally:
        context.close()


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
