"""The step loop both trainers' workers share (training/steps.py), on sessions made up here: how
many steps a call takes, what ends it early, and what it records. test_training.py and
test_microgpt.py hold it to the real sessions through their workers' JSON."""

import json
import math

import pytest

from runner.value_class import make_class
from training.steps import steps


class Scripted:
    """A session whose steps' losses are `losses`, in turn; `unhealthy` and `stalled_at`, the
    steps after which a parameter is not finite or no gradient reached any; `raises`, what the
    step of that number raises."""

    def __init__(self, losses, unhealthy=(), stalled_at=(), raises=None, at=None):
        self.losses, self.count = list(losses), 0
        self.unhealthy, self.stalled_at = set(unhealthy), set(stalled_at)
        self.raises, self.raising_at = raises, at

    def step(self):
        if self.count + 1 == self.raising_at:
            raise self.raises
        self.count += 1
        return self.losses[self.count - 1]

    def healthy(self):
        return self.count not in self.unhealthy

    def stalled(self):
        return self.count in self.stalled_at


def run(session, count=10, budget_ms=60_000, cap=100, **hooks):
    return steps(session, count, budget_ms, None, cap=cap, **hooks)


def test_it_takes_the_steps_asked_and_records_their_losses():
    session = Scripted([3.0, 2.0, 1.0, 0.5])
    ran = run(session, count=3)
    assert (session.count, ran.losses) == (3, [3.0, 2.0, 1.0])
    assert (ran.problem, ran.error, ran.exception, ran.finished) == (None, None, None, None)


def test_a_call_takes_no_more_than_its_cap_however_many_are_asked():
    session = Scripted([1.0] * 10)
    assert len(run(session, count=10, cap=4).losses) == 4


def test_a_call_past_its_budget_ends_after_the_step_under_way():
    session = Scripted([1.0] * 10)
    assert run(session, count=10, budget_ms=0).losses == [1.0]


@pytest.mark.parametrize("loss", [math.nan, math.inf, -math.inf])
def test_a_loss_that_is_not_finite_ends_the_call_recorded_as_none(loss):
    ran = run(Scripted([2.0, loss, 1.0]))
    assert ran.losses == [2.0, None]
    assert ran.problem == {"step": 2}


def test_a_parameter_left_not_finite_ends_the_call():
    ran = run(Scripted([2.0, 1.5, 1.0], unhealthy={2}))
    assert (ran.losses, ran.problem) == ([2.0, 1.5], {"step": 2})


def test_a_step_that_reached_no_parameter_ends_the_call_stalled():
    ran = run(Scripted([3.3, 3.3], stalled_at={1}))
    assert (ran.losses, ran.problem) == ([3.3], {"step": 1, "stalled": True})


def test_finished_ends_the_call_saying_why_and_is_asked_after_each_healthy_step():
    session = Scripted([1.0] * 10)
    asked = []

    def finished():
        asked.append(session.count)
        return "limit" if session.count == 3 else None

    ran = run(session, finished=finished)
    assert (ran.finished, ran.losses, asked) == ("limit", [1.0] * 3, [1, 2, 3])
    assert run(Scripted([1.0, math.nan]), finished=lambda: None).finished is None


def test_each_runs_after_every_step_before_a_problem_ends_the_call():
    session = Scripted([2.0, 1.0, math.nan])
    seen = []
    run(session, each=lambda: seen.append(session.count))
    assert seen == [1, 2, 3]


def test_an_exception_ends_the_call_keeping_the_losses_before_it():
    raised = ZeroDivisionError("float division by zero")
    ran = run(Scripted([2.0, 1.0, 0.5], raises=raised, at=3))
    assert ran.losses == [2.0, 1.0]
    assert ran.exception is raised and ran.problem is None
    assert ran.error["type"] == "ZeroDivisionError" and ran.error["slot"] is None


def test_an_exception_in_the_learners_code_is_described_at_their_line(runner_zip_data):
    design = runner_zip_data
    closures = design["designs"]["closures"]
    body = "self.grad += out.grad\nraise ValueError('mine')\n"
    value, slots = make_class(closures, closures["references"] | {"relu": body}, {"relu": body})

    class Relu(Scripted):
        def step(self):
            self.count += 1
            out = value(2.0).relu()
            out.backward()
            return out.data

    ran = steps(Relu([]), 5, 60_000, slots, cap=100)
    assert ran.losses == [] and ran.error["slot"] == "relu" and ran.error["line"] == 2
    assert "mine" in ran.error["summary"]
    json.dumps(ran.error)  # the worker sends it as it is
