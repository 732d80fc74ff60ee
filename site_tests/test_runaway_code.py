"""Code that runs too long, too deep or too big: the run stops (at the time limit, or at Stop),
the learner is told why, and the next run works at once, on the spare Python loaded meanwhile
(every run has a fresh one, and a stopped run's is thrown away).

Where the page is cross-origin isolated (served with COOP/COEP, or through the site's service
worker), a stopped run is first interrupted, to say which line it was on; elsewhere, and when
the interrupt goes unanswered (a loop inside C code), it is ended without that. How long it
took until the next run could start is printed for each case (measured, not asserted).
"""

import re

import pytest
from conftest import SITE, assert_clean, learner_at
from playwright.sync_api import expect

from devtools import serve

LOOP = "self.grad += 0.0\nwhile True:\n    pass\n"
C_LOOP = "sum(range(10**12))\n"  # one call into C: no bytecode boundary to interrupt it at
GROWING_LIST = "x = []\nwhile True:\n    x.append(' ' * 10**6)\n"
DEEP_DATA = "a = []\nfor _ in range(200000):\n    a = [a]\nrepr(a)\n"  # recursion in C, not Python
TIME_LIMIT = re.compile(r"Stopped Your code was still running after \d+ seconds?, the time limit")
WHERE = re.compile(r"It was running line [23] of your __mul__ code")
# what Pyodide itself logs when the browser's stack overflows under it
PYODIDE_FATAL = ("fatal error", "Maximum call stack size", "Stack (most recent call first)")


@pytest.fixture(scope="module")
def isolated_site():
    with serve.start(SITE, isolate=True) as running:
        yield running


@pytest.fixture(scope="module")
def isolated(browser, isolated_site, widget_page):
    """One cross-origin isolated page for the module: `(learner, watch)`."""
    learner, watch, close = learner_at(browser, isolated_site.url + widget_page.lstrip("/"))
    learner.open()
    assert learner.page.evaluate("crossOriginIsolated")
    yield learner, watch
    close()
    assert_clean(watch)


def say(capsys, text):
    """A measured figure, printed whether or not the test passes."""
    with capsys.disabled():
        print(f"\n    {text}", end="")


def solve_mul(learner, exercises):
    learner.write(exercises["mul"].solutions["mul"])
    return learner.run()


def test_an_endless_loop_stops_at_the_time_limit_and_says_where(isolated, exercises, capsys):
    learner, _ = isolated
    learner.open_tab("__mul__")
    # twice at most: in CI, twice in many runs, the interrupted runner's answer lacked the line
    # (cause not found here, even on one core beside CPU hogs); each try's recovery is printed
    for attempt in (1, 2):
        learner.write(LOOP)
        assert learner.run() == "stopped"
        text = learner.result_text()
        assert TIME_LIMIT.match(text), text
        said_where = WHERE.search(text)
        if said_where:  # where it was: the loop's line, shown and marked in the editor
            expect(learner.panel.locator(".cm-line.mg-line-error")).to_have_count(1)
        assert solve_mul(learner, exercises) == "pass"
        how, ms, answered = learner.recoveries()[-1]
        say(capsys, f"time limit, isolated (try {attempt}): {how}, answered {answered}")
        if said_where:
            break
    assert said_where, f"{text} (recovered by {how}, answered {answered})"
    assert how == "interrupt"
    say(capsys, f"time limit, isolated: next run possible {ms} ms after the limit")


def test_stop_ends_a_run_at_once(isolated, exercises, capsys):
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write(LOOP)
    learner.start_run()
    assert learner.stop() == "stopped"
    # the line it was on, when the interrupt found it in the learner's loop already
    assert learner.result_text().startswith("Stopped You pressed Stop.")
    expect(learner.panel.get_by_role("button", name="Stop")).to_be_hidden()
    assert solve_mul(learner, exercises) == "pass"
    how, ms, _ = learner.recoveries()[-1]
    say(capsys, f"Stop, isolated: stopped by {how}, next run possible {ms} ms after Stop")


def test_a_loop_inside_c_code_is_ended_with_its_python(isolated, exercises, capsys):
    """At the time limit the code is inside one long call into C, which no interrupt reaches:
    its Python is ended all the same, without saying where."""
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write(C_LOOP)
    assert learner.run() == "stopped"
    text = learner.result_text()
    assert TIME_LIMIT.match(text) and not WHERE.search(text), text
    assert solve_mul(learner, exercises) == "pass"
    how, ms, _ = learner.recoveries()[-1]
    assert how == "end"
    say(capsys, f"loop in C code, its Python ended: next run possible {ms} ms after the limit")


def test_a_growing_list_is_stopped(isolated, exercises):
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write(GROWING_LIST)
    # the time limit or the browser's 4 GiB, whichever comes first
    verdict = learner.run()
    text = learner.result_text()
    assert (verdict, TIME_LIMIT.search(text) is not None) == ("stopped", True) or (
        verdict == "error" and "MemoryError" in text
    ), text
    assert solve_mul(learner, exercises) == "pass"


def test_a_memory_bomb_in_one_allocation_is_a_clean_error(isolated, exercises):
    learner, _ = isolated
    learner.open_tab("__mul__")
    for body, error in [
        ("x = [0] * 10**10\n", "OverflowError"),  # beyond a 32-bit WebAssembly index
        ("x = [0] * 10**9\n", "MemoryError"),
    ]:
        learner.write(body)
        assert learner.run() == "error"
        assert f"{error} on line 1 of your __mul__ code" in learner.result_text()
    assert solve_mul(learner, exercises) == "pass"


def test_deep_recursion_is_a_clean_recursion_error(isolated, exercises):
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write("def f(n):\n    return f(n + 1)\nf(0)\n")
    assert learner.run() == "error"
    text = learner.result_text()
    assert "RecursionError on line 2 of your __mul__ code: maximum recursion depth exceeded" in text
    assert solve_mul(learner, exercises) == "pass"


def test_recursion_that_overflows_the_browsers_stack_is_a_crash_the_next_run_survives(
    isolated, exercises
):
    learner, watch = isolated
    learner.open_tab("__mul__")
    errors = len(watch.errors)
    learner.write(DEEP_DATA)
    assert learner.run() == "error"
    assert "Python crashed: your code went too deep" in learner.result_text()
    assert "your code is kept" in learner.result_text()
    assert learner.code() == DEEP_DATA.rstrip("\n")
    assert solve_mul(learner, exercises) == "pass"
    logged = watch.errors[errors:]
    assert all(any(part in error for part in PYODIDE_FATAL) for error in logged), logged
    del watch.errors[errors:]


def test_without_isolation_a_stop_ends_the_run_without_saying_where(new_visitor, exercises, capsys):
    learner, _ = new_visitor()
    assert not learner.page.evaluate("crossOriginIsolated")
    learner.open_tab("__mul__")
    learner.write(LOOP)
    learner.start_run()
    assert learner.stop() == "stopped"
    assert learner.result_text() == "Stopped You pressed Stop."
    assert solve_mul(learner, exercises) == "pass"
    how, ms, _ = learner.recoveries()[-1]
    assert how == "end"
    say(capsys, f"not isolated: next run possible {ms} ms after the stop")


def test_the_service_worker_isolates_the_page_from_the_next_load_on(visit, exercises):
    learner, _ = visit(service_workers="allow")
    assert not learner.page.evaluate("crossOriginIsolated")
    learner.page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    learner.reload()
    assert learner.page.evaluate("crossOriginIsolated")
    learner.open_tab("__mul__")
    learner.write(LOOP)
    assert learner.run() == "stopped"  # at the time limit: well inside the loop
    assert WHERE.search(learner.result_text())
    assert solve_mul(learner, exercises) == "pass"
    assert [how for how, _, _ in learner.recoveries()] == ["interrupt"]


def test_under_isolation_every_tab_passes_with_its_reference(isolated, exercises):
    """(The journey the other engines walk under isolation, test_browser_engines.py.) Last: the
    runs before it stay as they were, the time limit's interrupt first on the page."""
    learner, _ = isolated
    for op in ("add", "mul", "pow", "tanh", "exp", "relu"):
        assert learner.solve(exercises[op].label, exercises[op].solutions[op]) == "pass"
