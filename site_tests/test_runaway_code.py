"""Code that runs too long, too deep or too big: the run stops (at the time limit, or at Stop),
the learner is told why, and the next run works.

Where the page is cross-origin isolated (served with COOP/COEP, or through the site's service
worker), Python is interrupted and stays loaded; otherwise, and when the interrupt is not
answered (a loop inside C code), the worker is replaced. How long it took until the next run
could start is printed for each case (measured, not asserted).
"""

import re

import pytest
from conftest import SITE, assert_clean, learner_at
from playwright.sync_api import expect

from course import serve

LOOP = "self.grad += 0.0\nwhile True:\n    pass\n"
C_LOOP = "sum(range(10**12))\n"  # one call into C: no bytecode boundary to interrupt it at
GROWING_LIST = "x = []\nwhile True:\n    x.append(' ' * 10**6)\n"
DEEP_DATA = "a = []\nfor _ in range(200000):\n    a = [a]\nrepr(a)\n"  # recursion in C, not Python
TIME_LIMIT = re.compile(r"Stopped Your code was still running after \d+ seconds?, the time limit")
RESTARTED = "Python had to be restarted to stop it"
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


def test_an_endless_loop_stops_at_the_time_limit_python_staying_loaded(isolated, exercises, capsys):
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write(LOOP)
    workers = len(learner.python_workers)
    assert learner.run() == "stopped"
    text = learner.result_text()
    assert TIME_LIMIT.match(text), text
    # where it was: the loop's line, shown and marked in the editor
    assert re.search(r"It was running line [23] of your __mul__ code", text), text
    expect(learner.panel.locator(".cm-line.mg-line-error")).to_have_count(1)
    assert RESTARTED not in text
    assert solve_mul(learner, exercises) == "pass"
    assert len(learner.python_workers) == workers
    how, ms = learner.recoveries()[-1]
    assert how == "interrupt"
    say(capsys, f"time limit, interrupted: next run possible {ms} ms after the limit")


def let_it_run(learner):
    """Give a run time to reach the learner's code: an interrupt that lands in the grader's own
    code is answered by restarting Python, which is not what these tests look at."""
    learner.page.wait_for_timeout(1000)


def test_stop_ends_a_run_at_once(isolated, exercises, capsys):
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write(LOOP)
    learner.start_run()
    let_it_run(learner)
    assert learner.stop() == "stopped"
    assert "Stopped You pressed Stop." in learner.result_text()
    expect(learner.panel.get_by_role("button", name="Stop")).to_be_hidden()
    assert solve_mul(learner, exercises) == "pass"
    # a second interrupt in one worker is now and then not answered (seen in CI, not yet
    # explained); the run still stops, by replacing the worker: the path is reported, not asserted
    how, ms = learner.recoveries()[-1]
    say(capsys, f"Stop, isolated: recovered by {how}, next run possible {ms} ms after Stop")


def test_a_loop_inside_c_code_is_ended_by_restarting_python(isolated, exercises, capsys):
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write(C_LOOP)
    workers = len(learner.python_workers)
    learner.start_run()
    assert learner.stop() == "stopped"
    assert RESTARTED in learner.result_text()
    expect(learner.widget.get_by_text("Restarting Python…")).to_be_visible()
    assert solve_mul(learner, exercises) == "pass"
    assert len(learner.python_workers) == workers + 1
    how, ms = learner.recoveries()[-1]
    assert how == "restart"
    say(capsys, f"loop in C code, Python restarted: next run possible {ms} ms after Stop")


def test_a_growing_list_is_stopped_and_its_worker_replaced(isolated, exercises):
    learner, _ = isolated
    learner.open_tab("__mul__")
    learner.write(GROWING_LIST)
    workers = len(learner.python_workers)
    # the time limit or the browser's 4 GiB, whichever comes first; the heap never shrinks
    verdict = learner.run()
    text = learner.result_text()
    assert (verdict, TIME_LIMIT.search(text) is not None) == ("stopped", True) or (
        verdict == "error" and "MemoryError" in text
    ), text
    learner.wait_until_python_ready()
    assert len(learner.python_workers) == workers + 1
    assert solve_mul(learner, exercises) == "pass"


def test_a_memory_bomb_in_one_allocation_is_a_clean_error(isolated, exercises):
    learner, _ = isolated
    learner.open_tab("__mul__")
    workers = len(learner.python_workers)
    for body, error in [
        ("x = [0] * 10**10\n", "OverflowError"),  # beyond a 32-bit WebAssembly index
        ("x = [0] * 10**9\n", "MemoryError"),
    ]:
        learner.write(body)
        assert learner.run() == "error"
        assert f"{error} on line 1 of your __mul__ code" in learner.result_text()
    assert solve_mul(learner, exercises) == "pass"
    assert len(learner.python_workers) == workers


def test_deep_recursion_is_a_clean_recursion_error(isolated, exercises):
    learner, _ = isolated
    learner.open_tab("__mul__")
    workers = len(learner.python_workers)
    learner.write("def f(n):\n    return f(n + 1)\nf(0)\n")
    assert learner.run() == "error"
    text = learner.result_text()
    assert "RecursionError on line 2 of your __mul__ code: maximum recursion depth exceeded" in text
    assert solve_mul(learner, exercises) == "pass"
    assert len(learner.python_workers) == workers


def test_recursion_that_overflows_the_browsers_stack_restarts_python(isolated, exercises):
    learner, watch = isolated
    learner.open_tab("__mul__")
    workers = len(learner.python_workers)
    errors = len(watch.errors)
    learner.write(DEEP_DATA)
    assert learner.run() == "error"
    assert "Python crashed: your code went too deep" in learner.result_text()
    assert "your code is kept" in learner.result_text()
    assert learner.code() == DEEP_DATA.rstrip("\n")
    assert solve_mul(learner, exercises) == "pass"
    assert len(learner.python_workers) == workers + 1
    logged = watch.errors[errors:]
    assert all(any(part in error for part in PYODIDE_FATAL) for error in logged), logged
    del watch.errors[errors:]


def test_without_isolation_stopping_restarts_python(visit, exercises, capsys):
    """The same stop as at the time limit, which the isolated page's test waits for."""
    learner, _ = visit()
    assert not learner.page.evaluate("crossOriginIsolated")
    learner.open_tab("__mul__")
    learner.write(LOOP)
    learner.start_run()
    assert learner.stop() == "stopped"
    assert RESTARTED in learner.result_text()
    assert solve_mul(learner, exercises) == "pass"
    assert len(learner.python_workers) == 2
    how, ms = learner.recoveries()[-1]
    assert how == "restart"
    say(capsys, f"not isolated, Python restarted: next run possible {ms} ms after the stop")


def test_the_service_worker_isolates_the_page_from_the_next_load_on(visit, exercises):
    learner, _ = visit(service_workers="allow")
    assert not learner.page.evaluate("crossOriginIsolated")
    learner.page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    learner.reload()
    assert learner.page.evaluate("crossOriginIsolated")
    learner.open_tab("__mul__")
    learner.write(LOOP)
    learner.start_run()
    let_it_run(learner)
    assert learner.stop() == "stopped"
    assert RESTARTED not in learner.result_text()
    assert solve_mul(learner, exercises) == "pass"
    assert [how for how, _ in learner.recoveries()] == ["interrupt"]
