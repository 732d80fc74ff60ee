"""microgpt (microgpt/): the model learns names with the reference tuples, each break-it switch
fails the way docs/microgpt.md says and the nudge check names the culprit it should, and the
same seed gives Pyodide the losses CPython gets.

The browser's runner calls `start` and holds the session it gives, asking it for steps and
samples (`steps_json`, `sample_json`); so do these tests, in CPython, on the same runner data
the build writes.
"""

import json
import math
import shutil
import subprocess

import pytest
from conftest import DOCS

from devtools.training_runs import FIXTURE, short
from microgpt.culprit import OPS, disagreements
from microgpt.names import encode, load
from microgpt.session import Config, Session, all_finite, finite
from microgpt.worker import start as start_training
from runner.value_class import make_class

UNIFORM = math.log(27)
NAMES = "\n".join(load())


pytestmark = pytest.mark.usefixtures("runner_zip_data")  # the workers read it


@pytest.fixture(scope="module")
def design(runner_zip_data):
    return runner_zip_data["designs"]["local_grads"]


def start(bodies=None, **config):
    """`(training, started)`: a session, as the runner holds it, and the answer to starting it."""
    training = start_training(json.dumps(bodies or {}), json.dumps(config), NAMES)
    started = json.loads(training.started_json)
    assert "error" not in started, started
    return training, started


def train(steps, **config):
    """The session, the start's answer, and the losses, smoothed losses and last answer of
    `steps` steps."""
    training, started = start(**config)
    losses, smoothed = [], []
    while len(losses) < steps:
        answer = json.loads(training.steps_json(steps - len(losses), 60_000))
        losses += answer["losses"]
        smoothed += answer["smoothed"]
        if answer["problem"] or answer["error"]:
            break
    return training, started, losses, smoothed, answer


def test_the_data_is_the_census_first_names_each_once_in_letters():
    names = load()
    assert len(names) == len(set(names)) > 5000 and names[:3] == ["mary", "patricia", "linda"]
    assert all(name.isalpha() and name.isascii() and name.islower() for name in names)
    assert max(map(len, names)) < Config().block_size  # every name fits, with BOS before it
    assert encode("emma") == [26, 4, 12, 12, 0, 26]


@pytest.mark.parametrize(
    "numbers",
    [
        [],
        [1.0, 2, True],
        [1e308, 1e308],
        [math.inf],
        [0.0, -math.inf],
        [math.nan, 1.0],
        [math.inf, -math.inf],
        [1.0, "1.0"],
        [1.0, None],
        [object()],
    ],
)
def test_all_finite_says_what_finite_says_of_each(numbers):
    assert all_finite(numbers) == all(finite(n) for n in numbers)


def test_the_reference_learns_names(design):
    """From a uniform guess's loss to below 2.5 by step 300 (microgpt.md); the names it makes
    up are letters."""
    training, started, losses, smoothed, _ = train(300)
    assert started == {"disagree": []}
    assert abs(losses[0] - UNIFORM) < 0.2
    assert smoothed[299] < 2.5
    names = json.loads(training.sample_json(10, 0.5))["names"]
    assert len(names) == 10 and all(name.isalpha() for name in names)
    assert len(set(names)) > 3


def test_sampling_does_not_change_the_losses(design):
    """Training and sampling draw from random generators of their own; each session is the
    caller's (no module keeps one), so two held at once train as each would alone."""
    first, _ = start()
    second, _ = start()
    losses = json.loads(first.steps_json(3, 60_000))["losses"]
    assert len(json.loads(second.sample_json(5, 1.0))["names"]) == 5
    assert json.loads(second.steps_json(3, 60_000))["losses"] == losses
    assert first.session.count == second.session.count == 3


def test_a_wrong_log_is_named_before_training_and_the_names_come_out_empty(design):
    """microgpt.md: the loss sits around ten times a uniform guess's, the names are empty."""
    training, started, losses, _, answer = train(30, wrong_log=True)
    assert [wrong["op"] for wrong in started["disagree"]] == ["log"]
    wrong = started["disagree"][0]
    assert wrong["given"] == wrong["inputs"]  # (x,)
    assert abs(wrong["measured"] * wrong["inputs"][0] - 1) < 1e-6  # where 1/x belongs
    assert 5 * UNIFORM < sum(losses[10:]) / len(losses[10:]) < 20 * UNIFORM
    assert json.loads(training.sample_json(8, 0.5))["names"] == [""] * 8


def test_a_wrong_exp_sends_the_loss_into_the_hundreds(design):
    _, started, _, smoothed, _ = train(50, wrong_exp=True)
    assert [wrong["op"] for wrong in started["disagree"]] == ["exp"]
    assert smoothed[-1] > 100


def test_without_zero_grad_the_loss_blows_up_until_log_divides_by_zero(design):
    """microgpt.md: over three times a uniform guess's by step 100 and climbing; training
    stops when a probability reaches 0. Every tuple agrees with a nudge: the loop is to blame."""
    _, started, _, smoothed, answer = train(400, zero_grad=False)
    assert started["disagree"] == []
    assert smoothed[99] > 3 * UNIFORM and max(smoothed) > 2 * smoothed[99]
    assert answer["problem"] and answer["problem"]["disagree"] == []
    assert "ZeroDivisionError" in answer["problem"]["raised"]


def test_a_learning_rate_ten_times_too_high_leaps_above_a_uniform_guess(design):
    _, started, _, smoothed, _ = train(150, learning_rate=Config().learning_rate * 10)
    assert started["disagree"] == []
    assert max(smoothed) > 2 * UNIFORM


def test_a_tuple_of_the_wrong_length_or_an_error_in_one_is_said(design):
    _, started = start({"mul": "(other.data,)"})
    assert [wrong["op"] for wrong in started["disagree"]] == ["mul"]
    assert started["disagree"][0]["measured"] is None
    training, _ = start({"relu": "(1 / 0,)"})
    answer = json.loads(training.steps_json(1, 60_000))
    assert answer["error"]["label"] == "relu" and "ZeroDivisionError" in answer["error"]["summary"]


def test_with_the_starter_tuples_training_stops_at_step_1_and_says_it_is_stalled(exercises):
    """The starter tuples pass no gradient back: training stops at once (as the training page
    does) instead of stepping on at a uniform guess's loss."""
    stubs = {op: exercises[f"local-{op}"].stubs[op] for op in OPS.values()}
    stalled, _ = start(stubs)
    answer = json.loads(stalled.steps_json(20, 60_000))
    assert answer["step"] == 1 and len(answer["losses"]) == 1
    assert answer["problem"]["stalled"] and answer["problem"]["step"] == 1
    training, _ = start({})  # the reference tuples: every weight gets a gradient
    assert json.loads(training.steps_json(3, 60_000))["problem"] is None


def test_the_nudge_check_leaves_the_model_as_it_was(design):
    value, _ = make_class(design, design["references"], {})
    session = Session(value, Config(), load())
    before = [p.data for p in session.parameters]
    assert disagreements(session, "emma") == []
    assert [p.data for p in session.parameters] == before
    assert all(p.grad == 0 for p in session.parameters)
    assert "_made_by" not in vars(type(session.parameters[0]))


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")
def test_pyodide_takes_the_same_first_20_steps_as_cpython(design):
    # the names as the page hands them over: the `names` package is CPython's, not Pyodide's
    source = f"""
import json
from grader.exercises import load_catalog
from grader.runner_data import runner_data
from runner import value_class
from microgpt.worker import start

known = runner_data(load_catalog())
value_class.data = lambda: known  # where the worker reads runner.zip's data.json
training = start("{{}}", "{{}}", {NAMES!r})
json.dumps(json.loads(training.steps_json(20, 600_000))["losses"])
"""
    run = subprocess.run(
        ["node", str(DOCS.parent / "tests" / "pyodide" / "run.mjs")],
        input=source,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    in_pyodide = json.loads(run.stdout)
    training, _ = start()
    in_cpython = json.loads(training.steps_json(20, 600_000))["losses"]
    assert len(in_pyodide) == len(in_cpython) == 20
    for browser, cpython in zip(in_pyodide, in_cpython, strict=True):
        assert abs(browser - cpython) <= 1e-9


def test_the_recorded_microgpt_runs_the_verdict_is_tested_on_are_the_trainers_own():
    """tests/widget/verdict.test.mjs judges runs devtools/training_runs.py recorded: their first
    steps are what the trainer still takes for the same settings."""
    runs = json.loads(FIXTURE.read_text())
    recorded = [run for run in runs.values() if run["trainer"] == "microgpt"]
    assert len(recorded) == 5
    for run in recorded:
        training, _ = start(**run["config"])
        losses, smoothed = [], []
        while len(losses) < 3:  # a call may end early, at its time budget
            answer = json.loads(training.steps_json(3 - len(losses), 60_000))
            losses += answer["losses"]
            smoothed += answer["smoothed"]
        assert [short(x) for x in smoothed] == run["smoothed"][:3], run["config"]
        assert [short(x) for x in losses] == run["losses"][:3]
