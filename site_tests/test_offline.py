"""Offline after one visit, safe across redeploys, and "Erase my data" (widget/isolate.js,
widget/src/page/offline.js, widget/src/page/erase.js, course/offline.py).

These contexts allow the site's service worker: Playwright does not see the requests it answers,
so the requests' watch checks only what reached the network."""

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, SITE, assert_clean, learner_at
from learner import RUN_TIMEOUT_MS
from playwright.sync_api import expect

from course import offline
from devtools import serve

NEW_VERSION = "A new version of the course is ready: reload (your code is kept)."
UPDATED = "This course was updated since the page was opened: reload (your code is saved)."
EDITED = "# my edit, kept across the redeploy\n"
STORES = """async () => ({
  local: Object.keys(localStorage),
  session: Object.keys(sessionStorage),
  databases: (await indexedDB.databases()).map((d) => d.name),
  caches: await caches.keys(),
  workers: (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope),
})"""


def kept_offline(page):
    """Waits until the service worker is active with its deploy's cache complete."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    return page.evaluate("caches.keys()")


def site_pages():
    pages = SITE.rglob("index.html")
    return sorted(page.parent.relative_to(SITE).as_posix().strip(".") for page in pages)


def test_after_one_visit_the_course_works_offline_under_a_sub_path(
    browser, site_under_sub_path, widget_page, exercises
):
    url = site_under_sub_path.url
    start = url + widget_page.lstrip("/")
    learner, watch, close = learner_at(browser, start, service_workers="allow")
    page = learner.page
    try:
        assert learner.open().solve("__add__", exercises["add"].solutions["add"]) == "pass"
        assert kept_offline(page) == [f"micrograd:/course/:deploy:{deploy_of(SITE)}"]
        page.context.set_offline(True)
        for path in site_pages():
            page.goto(url + path + ("/" if path else ""))
            expect(page.locator("h1").first).to_be_visible()
        assert learner.open().solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
        for path in ("training/", "microgpt/"):
            page.goto(url + path)
            widget = page.locator("[data-training-widget], [data-microgpt-widget]").first
            widget.get_by_label("reference code").check()
            widget.get_by_role("button", name="Step", exact=True).click()
            expect(widget.locator("[data-step]")).to_have_attribute(
                "data-step", "1", timeout=RUN_TIMEOUT_MS
            )
    finally:
        close()
    assert_clean(watch)


def deploy_of(site):
    return json.loads((site / offline.DEPLOY_JSON).read_text())["deploy"]


@pytest.fixture
def redeployable(tmp_path):
    """The site served from a copy, `redeploy()`, which swaps the served folder for a new deploy
    of it (its worker renamed, so the old one is gone; sealed again), and the new deploy's id."""
    old = tmp_path / "old"
    shutil.copytree(SITE, old, copy_function=os.link)
    new = tmp_path / "new"
    shutil.copytree(SITE, new)  # real copies: sealing rewrites its pages
    worker = next((new / "assets" / "course").glob("worker-*.js"))
    renamed = worker.with_name("worker-NEWDEPLY.js")
    worker.rename(renamed)
    for path in [*new.rglob("*.html"), new / "assets" / "course" / "widget.js"]:
        path.write_text(path.read_text().replace(worker.name, renamed.name))
    offline.seal(ROOT, new, service_worker=True)
    deploy = deploy_of(new)

    def redeploy():  # the folder itself, as a host's switch: open connections keep its path
        old.rename(tmp_path / "retired")
        new.rename(old)

    with serve.start(old) as running:
        yield running, redeploy, deploy


def test_a_tab_open_across_a_redeploy_runs_correctly_or_says_to_reload(
    browser, redeployable, widget_page, exercises
):
    """Without the service worker: the old tab's next worker is gone from the host."""
    running, redeploy, _ = redeployable
    learner, watch, close = learner_at(browser, running.url + widget_page.lstrip("/"))
    try:
        assert learner.open().solve("__add__", exercises["add"].solutions["add"]) == "pass"
        learner.python_settled()
        learner.write(EDITED + exercises["add"].solutions["add"])
        redeploy()
        assert learner.run() == "pass"  # the runner loaded before: the old deploy's, whole
        banner = learner.page.locator("[data-course-update]")
        expect(banner).to_contain_text(UPDATED, timeout=RUN_TIMEOUT_MS)
        banner.get_by_role("button", name="Reload").click()
        learner.ready()
        learner.open_tab("__add__")
        assert learner.code().startswith(EDITED.strip())
        assert learner.run() == "pass"
    finally:
        close()
    # the old worker's 404 is said in the console; nothing else may be
    watch.errors = [error for error in watch.errors if "404" not in error]
    assert_clean(watch)


def test_a_new_deploy_is_precached_in_the_background_and_offered(
    browser, redeployable, widget_page, exercises
):
    running, redeploy, new_deploy = redeployable
    url = running.url + widget_page.lstrip("/")
    learner, watch, close = learner_at(browser, url, service_workers="allow")
    page = learner.page
    try:
        assert learner.open().solve("__add__", exercises["add"].solutions["add"]) == "pass"
        kept_offline(page)
        learner.write(EDITED + exercises["add"].solutions["add"])
        redeploy()
        learner.reload()  # from the old deploy's cache, which the browser's update check finds old
        banner = page.locator("[data-course-update]")
        expect(banner).to_contain_text(NEW_VERSION, timeout=RUN_TIMEOUT_MS)
        assert learner.run() == "pass"  # meanwhile, all of the old deploy
        banner.get_by_role("button", name="Reload").click()
        expect(page.locator('meta[name="course-deploy"]')).to_have_attribute("content", new_deploy)
        learner.ready().open_tab("__add__")
        assert learner.code().startswith(EDITED.strip())
        assert learner.run() == "pass"
        assert page.evaluate("caches.keys()") == [f"micrograd:/:deploy:{new_deploy}"]
    finally:
        close()
    assert_clean(watch)


def test_erase_my_data_leaves_nothing_of_the_course_in_the_browser(
    browser, site, widget_page, exercises
):
    learner, watch, close = learner_at(
        browser, site.url + widget_page.lstrip("/"), service_workers="allow", accept_downloads=True
    )
    page = learner.page
    try:
        assert learner.open().solve("__add__", exercises["add"].solutions["add"]) == "pass"
        kept_offline(page)
        learner.python_settled()
        page.goto(site.url)
        stored = page.evaluate(STORES)
        assert stored["local"] and stored["databases"] and stored["caches"] and stored["workers"]
        erase = page.locator("[data-erase-data]")
        erase.get_by_role("button", name="Erase my data…").click()
        with page.expect_download() as download:
            erase.get_by_role("button", name="Download my work").click()
        assert '"add"' in Path(download.value.path()).read_text()
        erase.get_by_role("button", name="Erase everything").click()
        expect(erase.get_by_role("status")).to_contain_text("is erased")
        stored = page.evaluate(STORES)
        assert stored == {"local": [], "session": [], "databases": [], "caches": [], "workers": []}
        page.wait_for_timeout(2000)  # the page keeps nothing afterwards either
        assert page.evaluate(STORES) == stored
    finally:
        close()
    assert_clean(watch)


def test_an_instant_page_change_to_another_deploy_loads_it_whole(browser, instant_site):
    """mkdocs-material swaps pages in place: one of a newer deploy would meet the old code."""
    learner, watch, close = learner_at(browser, instant_site.url)
    page = learner.page
    try:
        page.goto(instant_site.url)
        page.evaluate("window.sameDocument = true")
        page.route("**/value/", lambda route: fulfil_as_new_deploy(route))
        page.locator('a[href$="value/"]').first.click()
        # a swap may show the page a moment before the reload: wait for a new document
        page.wait_for_function("() => window.sameDocument !== true")  # times out if only swapped
        page.wait_for_load_state()
        expect(page.locator("h1").first).to_contain_text("Value")
    finally:
        close()
    assert_clean(watch)


def fulfil_as_new_deploy(route):
    response = route.fetch()
    body = offline.META.sub("", response.text())
    body = offline.with_deploy(body, "0123456789abcdef", service_worker=True)
    route.fulfill(response=response, body=body)
