"""Python loaded ahead (widget/src/python/prefetch.js): a lesson page, once loaded and idle, has a
runner load Python and save its memory, then a judge its warm one, so the exercise page after it
starts restored, both workers from their own memories; not
when the browser asks to save data or the connection is 2G-class; and a learner who moves on
while it loads (instant navigation) keeps that runner; and in a private window, whose HTTP
cache lives in memory, each of Python's files is downloaded once per page."""

import pytest
from conftest import SITE, assert_clean, learner_at
from learner import Learner, Watch, announced_roles
from playwright.sync_api import expect

from devtools import serve
from devtools.chromium import connection, emulate_network, full_speed

LESSON = "value/"
BLOCKS_LESSON = "gradients/"  # a lesson with live blocks and no exercise
AHEAD_TIMEOUT_MS = 30_000
ALREADY = "Python was loaded ahead already in this session"  # prefetch.js whyNot()
VOUCHED = """() => ["runner", "judge"].filter((role) =>
  Object.keys(localStorage).some((key) => key.endsWith(`:python-snapshot:${role}`)))"""
JUDGE_MEMORY = """() => performance.getEntriesByName("python-ready")[0].detail.judgeMemory"""
FORGET_THE_JUDGE = """() => {
  sessionStorage.clear();
  for (const key of Object.keys(localStorage))
    if (key.endsWith(":python-snapshot:judge")) localStorage.removeItem(key);
}"""
READY_AHEAD = "Python ready (loaded while you read the lessons)"
SLOW_NETWORK = (10, 40)  # Mbit/s, ms of latency
PYTHON_FILES = ("pyodide.asm.wasm", "python_stdlib.zip", "runner.zip", "grader.zip")


def marks(page, name):
    return page.evaluate(f"performance.getEntriesByName({name!r}).map((m) => m.detail)")


def wait_for_mark(page, name):
    # polled from here: the site's Content-Security-Policy forbids wait_for_function's eval
    for _ in range(AHEAD_TIMEOUT_MS // 100):
        if marks(page, name):
            return
        page.wait_for_timeout(100)
    pytest.fail(f"no {name} mark")


def fetched(requests):
    return sorted(name for name in PYTHON_FILES if any(url.endswith(name) for url in requests))


def test_a_lesson_whose_blocks_started_python_first_loads_only_the_judge_ahead(
    browser, site, widget_page
):
    """Its blocks are not graded, so its Python has no judge to save a warm memory: one loads
    ahead from the memory its runner made, and the exercise page's judge restores it."""
    learner, watch, close = learner_at(browser, site.url + BLOCKS_LESSON)
    page = learner.page
    try:
        page.goto(learner.url)
        page.locator('[data-cell="0"]').get_by_role("button", name="Run", exact=True).click()
        wait_for_mark(page, "python-ahead-end")
        assert marks(page, "python-ahead-end") == [{"how": "ready"}]
        assert page.evaluate(VOUCHED) == ["runner", "judge"]
        roles = announced_roles(page)
        assert roles and "judge" not in roles, roles
        exercise = Learner(page, site.url + widget_page.lstrip("/")).open()
        assert exercise.python_restored() is True
        assert page.evaluate(JUDGE_MEMORY) == "judge", "the judge restored its own warm memory"
    finally:
        close()
    assert_clean(watch)


def test_a_lesson_loads_python_ahead_and_the_exercise_page_starts_restored(
    browser, site, widget_page, exercises
):
    learner, watch, close = learner_at(browser, site.url + LESSON)
    page, requests = learner.page, watch.requests
    try:
        page.goto(learner.url)
        wait_for_mark(page, "python-ahead-end")
        assert marks(page, "python-ahead-end") == [{"how": "ready"}]
        assert fetched(requests) == sorted(PYTHON_FILES)
        # the runner, then the judge, ended once its memory was saved, and the page vouches for
        # both (Playwright hears of a worker's end a moment after it)
        for _ in range(50):
            if not learner.python_workers:
                break
            page.wait_for_timeout(100)
        assert learner.python_workers == []
        assert page.evaluate(VOUCHED) == ["runner", "judge"]

        exercise = Learner(page, site.url + widget_page.lstrip("/")).open()
        assert exercise.python_restored() is True
        assert page.evaluate(JUDGE_MEMORY) == "judge", "the judge restored its own warm memory"
        expect(exercise.widget.locator(".mg-status__text")).to_have_text(READY_AHEAD)
        assert exercise.solve("__add__", exercises["add"].solutions["add"]) == "pass"

        # another lesson in this tab does not load it again (cleared once it has loaded: the
        # exercise page's next spare may have started its downloads as the page was left)
        page.goto(site.url + LESSON)
        requests.clear()
        wait_for_mark(page, "python-ahead-skipped")
        assert marks(page, "python-ahead-skipped") == [{"why": ALREADY}]
        assert marks(page, "python-ahead-start") == []
        assert fetched(requests) == []

        # a later session with the runner's memory but not the judge's: the runner restores
        # its own, and a judge follows it and saves the judge's
        page.evaluate(FORGET_THE_JUDGE)
        page.reload()
        wait_for_mark(page, "python-ahead-end")
        assert page.evaluate(VOUCHED) == ["runner", "judge"]
    finally:
        close()
    assert_clean(watch)


@pytest.mark.parametrize(
    ("reported", "why"),  # what navigator.connection says, and what the page says of it
    [
        ({"saveData": True, "effectiveType": "4g"}, "the browser asks to save data"),
        ({"saveData": False, "effectiveType": "2g"}, "the connection is 2G-class"),
    ],
    ids=["save-data", "2g"],
)
def test_no_python_is_loaded_ahead_when_the_browser_asks_to_save_data(browser, site, reported, why):
    learner, watch, close = learner_at(browser, site.url + LESSON)
    page, requests = learner.page, watch.requests
    page.add_init_script(connection(**reported))
    try:
        page.goto(learner.url)
        wait_for_mark(page, "python-ahead-skipped")
        assert marks(page, "python-ahead-skipped") == [{"why": why}]
        assert marks(page, "python-ahead-start") == []
        assert fetched(requests) == []
        assert learner.python_workers == []
    finally:
        close()
    assert_clean(watch)


def test_a_learner_who_moves_on_while_python_loads_keeps_its_runner(
    browser, instant_site, widget_page, exercises
):
    learner, watch, close = learner_at(browser, instant_site.url + LESSON)
    page = learner.page
    # Python takes seconds to arrive: the learner is quicker
    network = emulate_network(page, *SLOW_NETWORK)
    try:
        page.goto(learner.url)
        wait_for_mark(page, "python-ahead-start")
        page.evaluate("window.sameDocument = true")
        page.locator(f'a[href$="{widget_page.strip("/")}/"]').first.click()
        exercise = Learner(page, None).ready()
        assert page.evaluate("window.sameDocument"), "the page was reloaded, not swapped"
        assert marks(page, "python-ahead-end") == [{"how": "taken"}]
        full_speed(network)  # taken: what follows need not wait for the slow network
        assert exercise.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
        # the runner loaded ahead became the spare: one judge, no third worker
        assert learner.python_roles() == ["judge", "runner"]
    finally:
        close()
    assert_clean(watch)


def test_a_private_window_downloads_each_python_file_once_per_page(browser, widget_page, exercises):
    """Counted by the server. The judge compiles the WebAssembly for the first runner beside it
    and the page keeps it for later ones; the rest comes from the HTTP cache."""
    python = ("/assets/pyodide/", "/assets/python/")
    with serve.start(SITE) as site:
        context = browser.new_context(service_workers="block")
        watch = Watch(context)
        sent = site.server.sent
        try:
            page = context.new_page()
            page.goto(site.url + LESSON)
            wait_for_mark(page, "python-ahead-end")
            on_lesson = dict(sent)
            sent.clear()
            exercise = Learner(page, site.url + widget_page.lstrip("/")).open()
            for label, op in (("__add__", "add"), ("__mul__", "mul"), ("tanh", "tanh")):
                assert exercise.solve(label, exercises[op].solutions[op]) == "pass"
            exercise.python_settled()  # the last run's next spare has loaded too
            on_exercise = dict(sent)
        finally:
            context.close()
    assert_clean(watch)
    for page_sent in (on_lesson, on_exercise):
        files = {path: count for path, count in page_sent.items() if path.startswith(python)}
        assert any(path.endswith("/pyodide.asm.wasm") for path in files)
        assert set(files.values()) == {1}, files
