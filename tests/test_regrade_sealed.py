"""The sealed runner (grader/sealed.py): a run's time limit counts from a ready Python, never
the process's start or the restore; a process past its memory cap is ended and said to be."""

import json
import time

import pytest

from grader import sealed
from grader.exercises import catalog

EXERCISES = catalog()


@pytest.fixture(scope="module")
def harness():
    made = sealed.Harness(EXERCISES, time_limit=0.5)
    yield made
    made.close()


def test_starting_a_process_is_never_charged_to_its_first_run(harness):
    runner = sealed.SealedRunner(harness)
    started = time.monotonic()
    try:
        report = json.loads(runner.run("mul", EXERCISES["mul"].solutions))
    finally:
        runner.close()
    assert time.monotonic() - started > harness.time_limit  # Node, Pyodide, the restore
    assert report["error"] is None and all(check["complete"] for check in report["checks"])


def test_a_process_past_its_memory_cap_is_ended_and_the_run_said_to_be_over_it(
    harness, monkeypatch
):
    monkeypatch.setattr(sealed, "PROCESS_MB", 1)
    runner = sealed.SealedRunner(harness)
    with pytest.raises(sealed.RunFailed) as failed:
        runner.run("mul", EXERCISES["mul"].solutions)
    assert failed.value.reason == "memory" and "passed 1 MB" in str(failed.value)
    assert runner.process is None  # ended; the next run starts another
