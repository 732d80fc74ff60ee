"""A site copied badly (a file missing, cut short, or replaced by a host's HTML error page):
the widget says at once that Python could not start and what whoever hosts the course should
check, and a run says so too; nothing spins forever."""

import os
import shutil

import pytest
from conftest import SITE, assert_clean, learner_at
from playwright.sync_api import expect

from devtools import serve

HTML_PAGE = b"<!doctype html><title>Not Found</title><h1>Not Found</h1>"
# case: (file name, new content (None: removed, "half": cut in half), what the status names)
CASES = {
    "wasm missing": ("pyodide.asm.wasm", None, "pyodide.asm.wasm could not be downloaded"),
    "wasm is an HTML page": ("pyodide.asm.wasm", HTML_PAGE, "pyodide.asm.wasm is not valid"),
    "wasm cut short": ("pyodide.asm.wasm", "half", "pyodide.asm.wasm is not valid"),
    "pyodide.mjs damaged": ("pyodide.mjs", HTML_PAGE, "Pyodide's JavaScript could not be loaded"),
    "runner.zip damaged": ("runner.zip", HTML_PAGE, "runner.zip"),
    "grader.zip damaged": ("grader.zip", HTML_PAGE, "grader.zip"),
    "worker missing": ("worker-*.js", None, "the Python worker could not run"),
}


def site_file(name):
    """The site's own file called `name` (not mkdocs-material's)."""
    return next(path for path in SITE.rglob(name) if "javascripts" not in path.parts)


@pytest.fixture
def misdeployed(tmp_path, request):
    """A copy of the site (hard links) with one file removed or damaged, served."""
    name, content, _ = CASES[request.param]
    copy = tmp_path / "site"
    shutil.copytree(SITE, copy, copy_function=os.link)
    target = copy / site_file(name).relative_to(SITE)
    original = target.read_bytes()
    target.unlink()  # a new file: the hard-linked original stays whole
    if content == "half":
        target.write_bytes(original[: len(original) // 2])
    elif content is not None:
        target.write_bytes(content)
    with serve.start(copy) as running:
        yield running, request.param


@pytest.mark.parametrize("misdeployed", list(CASES), indirect=True)
def test_python_that_cannot_start_says_what_to_check(browser, misdeployed, widget_page):
    site, case = misdeployed
    name, _, said = CASES[case]
    learner, watch, close = learner_at(browser, site.url + widget_page.lstrip("/"))
    try:
        learner.open()
        status = learner.widget.locator(".mg-status")
        expect(status).to_have_attribute("data-state", "failed")
        text = learner.status()
        assert text.startswith("Python could not start:"), text
        assert said in text, text
        expect(learner.widget.get_by_role("button", name="Try again")).to_be_visible()
        assert learner.run() == "error"
        result = learner.result_text()
        assert result.startswith("Python is not available") and said in result, result
        expect(learner.page.locator('[aria-busy="true"]')).to_have_count(0)
    finally:
        close()
    # the browser reports the missing file itself; nothing else may go wrong
    watch.errors[:] = [error for error in watch.errors if "404" not in error]
    assert_clean(watch)


class NoWebAssemblyHandler(serve.SiteHandler):
    """A host whose own Content-Security-Policy header leaves out 'wasm-unsafe-eval'."""

    def end_headers(self):
        self.send_header("Content-Security-Policy", "script-src 'self' 'unsafe-inline'")
        super().end_headers()


def test_a_host_policy_that_forbids_webassembly_is_named(browser, widget_page):
    with serve.start(SITE) as site:
        site.server.RequestHandlerClass = NoWebAssemblyHandler
        learner, watch, close = learner_at(browser, site.url + widget_page.lstrip("/"))
        try:
            learner.open()
            status = learner.widget.locator(".mg-status")
            expect(status).to_have_attribute("data-state", "failed")
            said = "should allow blob: in worker-src and 'wasm-unsafe-eval' in script-src"
            assert said in learner.status()
        finally:
            close()
    # the browser reports what the policy refused itself; nothing else may go wrong
    watch.errors[:] = [error for error in watch.errors if "Content Security Policy" not in error]
    assert_clean(watch)
