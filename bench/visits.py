"""One visit to a page in Chromium and what it measured, read in the page itself from the
performance timeline: the `python-start` and `python-ready` marks (set by
widget/src/python/python.js and by bench/bare.html, both relative to navigation start) and the
main thread's long tasks. On the course's page, also the time from a click on "Run test" to
the rendered verdict.
"""

import time
from pathlib import Path

from devtools.chromium import connection, emulate_network

READY_TIMEOUT_MS = 120_000
READ_VERDICT_S = 1.0
READ_FIRST_MS = 5_000  # a learner who reads the page once Python is ready, then presses Run
BACK_TO_BACK = 3  # runs pressed, on a first visit, each as soon as the verdict before is shown
LONG_TASK_MS = 50  # a task longer than this delays input: the definition of a long task
# A learner's earlier visits: Python loads, the learner reads, runs once, reads the verdict. What
# a page saves once it has started (the browser's code caches, our memory snapshots, the judge's
# made while nothing is asked of it) is written by then. The timed visits close at once.
WARM_UP_STAY_MS = 3000
PROBE = Path(__file__).with_name("probe.js")
# a browser that asks to save data: no Python is loaded ahead
SAVE_DATA = connection(saveData=True)


def visit(page, url, *, throttle=None, run=False):
    """Opens `url` and waits for Python: `{ready_ms, start_ms, mounted_ms, restored,
    longest_task_ms, blocking_ms}`, and `usable_longest_task_ms` if the widget was shown before
    Python was ready. With `run` (the exercise page), "Run test" is pressed as soon as the
    widget shows, as a learner who has read the lessons would, then BACK_TO_BACK times more,
    each as the verdict before appears: also `{verdict_ms, after_ready_ms, drawn_ms,
    back_to_back_ms}`, the first verdict on screen from navigation start, from Python ready and
    from its result, and the others' times from their clicks."""
    if throttle:
        emulate_network(page, *throttle)
    page.add_init_script(path=PROBE)
    page.goto(url)
    verdict = click_run(page) if run else None
    page.wait_for_function("__bench.ready()", timeout=READY_TIMEOUT_MS, polling=50)
    timeline = page.evaluate("__bench.timeline()")
    figures = {
        "ready_ms": timeline["ready"],
        "start_ms": timeline["start"],
        "mounted_ms": timeline["mounted"],
        "restored": timeline["restored"],
        "phases": timeline["phases"],  # the course's page: {judge, runner}, see probe.js
        **blocking(timeline["longTasks"], until=timeline["ready"]),
    }
    if verdict:
        shown = verdict["start"] + verdict["ms"]
        figures["verdict_ms"] = shown
        figures["after_ready_ms"] = shown - timeline["ready"]
        figures["drawn_ms"] = verdict.get("drawn_ms")  # from its result to the verdict on screen
        figures["back_to_back_ms"] = [click_run(page)["ms"] for _ in range(BACK_TO_BACK)]
    if timeline["mounted"] is not None and timeline["mounted"] < timeline["ready"]:
        # the widget is shown and usable while Python loads: what the main thread does then
        usable = blocking(timeline["longTasks"], since=timeline["mounted"], until=timeline["ready"])
        figures["usable_longest_task_ms"] = usable["longest_task_ms"]
    return figures


def earlier_visit(page, url, *, run):
    """A learner's visit before the timed ones: Python loads, the page is read WARM_UP_STAY_MS,
    "Run test" is pressed (with `run`: the course's page), and the page stays WARM_UP_STAY_MS
    more."""
    visit(page, url)
    page.wait_for_timeout(WARM_UP_STAY_MS)
    if run:
        click_run(page)
    page.wait_for_timeout(WARM_UP_STAY_MS)


def run_after_reading(page, url):
    """Opens `url`, waits for Python, stays READ_FIRST_MS (a learner reading the exercise) and
    presses "Run test": the click to the verdict on screen, in ms."""
    visit(page, url)
    page.wait_for_timeout(READ_FIRST_MS)
    return click_run(page)["ms"]


def click_run(page):
    """Presses the visible tab's "Run test" once it is shown: `{ms, verdict, start}` (probe.js)."""
    panel = page.locator("[data-exercise-widget]").get_by_role("tabpanel")
    button = panel.get_by_role("button", name="Run test")
    button.wait_for()
    page.evaluate("__bench.armVerdictTimer()")
    button.click()
    return page.evaluate("__bench.verdict")


def lesson_load(page, url, *, stay_ms, ahead):
    """Opens the lesson page `url` and stays `stay_ms`: its first contentful paint, its longest
    main-thread task and total blocking time meanwhile, and whether Python was loaded ahead
    (`ahead` False: the browser asks to save data, which turns that off)."""
    page.add_init_script(path=PROBE)
    if not ahead:
        page.add_init_script(SAVE_DATA)
    page.goto(url)
    page.wait_for_timeout(stay_ms)
    fcp = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
    )
    loaded = page.evaluate(
        "performance.getEntriesByName('python-ahead-end').map((m) => m.detail.how)"
    )
    return {"fcp_ms": fcp, "loaded_ahead": loaded == ["ready"], **blocking(long_tasks(page))}


def blocking(long_tasks, *, since=0.0, until=float("inf")):
    """The longest main-thread task and the total blocking time (the sum of each long task's
    time beyond 50 ms) among the tasks that started between `since` and `until`."""
    durations = [duration for start, duration in long_tasks if since <= start < until]
    return {
        "longest_task_ms": max(durations, default=0.0),
        "blocking_ms": sum(duration - LONG_TASK_MS for duration in durations),
    }


def long_tasks(page):
    return page.evaluate("__bench.longTasks")


def fill_editors(page, bodies):
    """Writes each op tab's body (`{tab label: code}`), as pasting would."""
    widget = page.locator("[data-exercise-widget]").first
    for label, body in bodies.items():
        widget.get_by_role("tab", name=label, exact=True).click()
        editor = widget.get_by_role("tabpanel").locator(".cm-content")
        editor.click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(body)


def pass_tabs(page, bodies, timeout_ms):
    """Writes each op tab's body (`{tab label: code}`) and runs its test, each to a pass: a
    learner who has done those tabs, for a trainer that runs the learner's code."""
    widget = page.locator("[data-exercise-widget]").first
    panel = widget.get_by_role("tabpanel")  # the visible one
    fill_editors(page, bodies)
    for label in bodies:
        widget.get_by_role("tab", name=label, exact=True).click()
        panel.get_by_role("button", name="Run test", exact=True).click()
        panel.locator("[data-verdict=pass]").wait_for(timeout=timeout_ms)


def time_runs(page, label, runs):
    """Clicks "Run test" on the tab `label` `runs` times: `[{ms, verdict, start}]`."""
    widget = page.locator("[data-exercise-widget]").first
    widget.get_by_role("tab", name=label, exact=True).click()
    button = widget.get_by_role("tabpanel").get_by_role("button", name="Run test", exact=True)
    timings = []
    for _ in range(runs):
        page.evaluate("__bench.armVerdictTimer()")
        button.click()
        timings.append(page.evaluate("__bench.verdict"))
        # a learner reads a verdict before the next run: meanwhile the next spare runner loads
        # (each run gets a fresh one), as it does between a learner's two clicks
        time.sleep(READ_VERDICT_S)
    return timings
