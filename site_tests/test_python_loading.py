"""How Python loads (widget/src/worker/load-python.js): a judge and a fresh runner for every
run, started from the page's <head> and adopted by the widget, every runner with the judge's
compiled WebAssembly; the runner gets the learner's side of grading only, never the grader; the
trimmed standard library, and Pyodide's full one only when a learner imports a module the
trimmed one lacks."""

from urllib.parse import urlsplit

FULL_STDLIB = "/assets/pyodide/"  # + <version>/python_stdlib.zip
TRIMMED_STDLIB = "/assets/python/"  # + <hash>/python_stdlib.zip
FETCHED = "performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)"


def fetched(watch, name):
    return [urlsplit(url).path for url in watch.requests if urlsplit(url).path.endswith(name)]


def test_a_judge_and_a_fresh_runner_per_run_and_the_trimmed_stdlib(visit, exercises):
    learner, watch = visit()
    runners = []
    for _ in range(3):
        runners.append(learner.python_worker("runner"))
        assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    assert len(set(runners)) == 3  # each run had a Python of its own
    # the judge fetched the WebAssembly and compiled it for the first runner, then for the page
    # to hand each later runner (a private window's HTTP cache, in memory, cannot hold it)
    assert len(fetched(watch, "/pyodide.asm.wasm")) == 1
    assert all(learner.names[runner].endswith("+wasm") for runner in runners)
    stdlib = set(fetched(watch, "/python_stdlib.zip"))
    assert stdlib and all(path.startswith(TRIMMED_STDLIB) for path in stdlib)
    assert not fetched(watch, "pyodide-lock.json")
    judge = learner.python_worker("judge").evaluate(FETCHED)
    assert any(path.endswith("/grader.zip") for path in judge)
    runner = learner.python_worker("runner")  # the next spare: its downloads may be under way
    for _ in range(100):
        fetched_by_runner = runner.evaluate(FETCHED)
        if any(path.endswith("/python_stdlib.zip") for path in fetched_by_runner):
            break
        learner.page.wait_for_timeout(100)
    assert any(path.endswith("/runner.zip") for path in fetched_by_runner)
    assert not any(path.endswith("/grader.zip") for path in fetched_by_runner)


def test_the_runner_s_python_holds_no_grader(visit, exercises):
    """Learner code finds no answer key to copy: there is no grader in its interpreter."""
    learner, _ = visit()
    body = (
        "import sys, importlib.util\n"
        "print(sorted(m for m in sys.modules if m.startswith('grader')))\n"
        "print(importlib.util.find_spec('grader'))\n" + exercises["add"].solutions["add"]
    )
    assert learner.solve("__add__", body) == "pass"
    output = learner.result.locator("details", has_text="What your code printed")
    output.locator("summary").click()
    # printed once per closure call: every time, no grader module and none to import
    assert set(output.locator("pre").inner_text().split("\n")) == {"[]", "None", ""}


def test_a_module_the_trimmed_stdlib_lacks_comes_from_the_full_one(visit, exercises):
    learner, watch = visit()
    body = "import statistics\n" + exercises["mul"].solutions["mul"]
    assert learner.solve("__mul__", body) == "pass"
    assert [path for path in fetched(watch, "/python_stdlib.zip") if path.startswith(FULL_STDLIB)]
