"""How Python loads (widget/src/load-python.js): one worker, started from the page's <head> and
adopted by the widget; the trimmed standard library, and Pyodide's full one only when a learner
imports a module the trimmed one lacks."""

from urllib.parse import urlsplit

FULL_STDLIB = "/assets/pyodide/"  # + <version>/python_stdlib.zip
TRIMMED_STDLIB = "/assets/python/"  # + <hash>/python_stdlib.zip


def fetched(watch, name):
    return [urlsplit(url).path for url in watch.requests if urlsplit(url).path.endswith(name)]


def test_one_worker_and_the_trimmed_stdlib(visit, exercises):
    learner, watch = visit()
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    assert len(fetched(watch, "/worker.js")) == 1
    [stdlib] = fetched(watch, "/python_stdlib.zip")
    assert stdlib.startswith(TRIMMED_STDLIB)
    assert not fetched(watch, "pyodide-lock.json")


def test_a_module_the_trimmed_stdlib_lacks_comes_from_the_full_one(visit, exercises):
    learner, watch = visit()
    body = "import statistics\n" + exercises["mul"].solutions["mul"]
    assert learner.solve("__mul__", body) == "pass"
    assert [path for path in fetched(watch, "/python_stdlib.zip") if path.startswith(FULL_STDLIB)]
