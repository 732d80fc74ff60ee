"""The sealed runner (grader/cli/sealed.py): a run's time limit counts from a ready Python, never
the process's start or its restore; a run past it, or a process past its memory cap, is ended
and said to be."""

import json
import sys
from types import SimpleNamespace

import pytest

from grader.cli import sealed
from grader.exercises import catalog

EXERCISES = catalog()
# a stand-in for runner/node.mjs, on its protocol: slow to be ready, then quick (or silent)
SLOW_START = """
import json, sys, time
time.sleep(1.5)
print(json.dumps({"ready": True}), flush=True)
sys.stdin.readline()
if "answer" in sys.argv:
    print(json.dumps({"observation": "{}"}), flush=True)
time.sleep(60)
"""


def stand_in(*args):
    command = [sys.executable, "-c", SLOW_START, *args]
    return SimpleNamespace(time_limit=1.0, command=lambda: command)


def test_starting_a_process_is_never_charged_to_its_first_run():
    runner = sealed.SealedRunner(stand_in("answer"))
    try:
        assert runner.run("{}\n") == "{}"  # ready after 1.5 s; the limit is 1 s
    finally:
        runner.close()


def test_a_run_past_its_time_limit_ends_its_process():
    runner = sealed.SealedRunner(stand_in())
    with pytest.raises(sealed.RunFailed) as failed:
        runner.run("{}\n")
    assert failed.value.reason == "time" and str(failed.value) == "still running after 1 s"
    assert runner.process is None  # ended; the next run starts another


def test_a_process_past_its_memory_cap_is_ended_and_the_run_said_to_be_over_it(monkeypatch):
    harness = sealed.Harness(EXERCISES, time_limit=5)
    monkeypatch.setattr(sealed, "PROCESS_MB", 1)
    runner = sealed.SealedRunner(harness)
    try:
        with pytest.raises(sealed.RunFailed) as failed:
            runner.run(harness.request("mul", EXERCISES["mul"].solutions))
    finally:
        harness.close()
    assert failed.value.reason == "memory" and "passed 1 MB" in str(failed.value)
    assert runner.process is None


# what a run's code finds of JavaScript from inside its Python, printed for the test to read
PROBE = """
import gc, sys
held = [r for o in gc.get_objects() for r in gc.get_referents(o) if type(r).__name__ == "JsProxy"]
print("JavaScript objects held:", len(held))
bridges = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core")
print("modules:", sorted(m for m, v in sys.modules.items() if v and m.split(".")[0] in bridges))
from importlib.machinery import BuiltinImporter
core = sys.modules["_imp"].create_builtin(BuiltinImporter.find_spec("_pyodide_core"))
shared = core.to_js([]).__proto__
try:
    shared.push = shared.pop
    print("Array.prototype changed")
except Exception as error:
    print("Array.prototype refused:", type(error).__name__)
self.grad += out.grad
"""


def test_a_run_s_python_reaches_no_javascript_and_cannot_change_what_it_shares():
    harness = sealed.Harness(EXERCISES, time_limit=5)
    runner = sealed.SealedRunner(harness)
    try:
        said = json.loads(runner.run(harness.request("add", {"add": PROBE})))["stdout"]
    finally:
        runner.close()
        harness.close()
    assert "JavaScript objects held: 0\n" in said
    assert "modules: []\n" in said
    assert "Array.prototype refused: JsException" in said or "refused: TypeError" in said, said
