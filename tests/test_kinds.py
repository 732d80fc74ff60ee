"""A kind of exercise is a module of grader/kinds/ and an entry in its registry (AUTHORING.md,
"Adding a kind"): a toy kind registered there is loaded from its folder, judged, and given its
runner's and widget's data, with no other file told of it."""

import pytest

from course.widget_data import widget_data
from grader.exercises import ExerciseError, expectations, load_catalog
from grader.judge import judge
from grader.kinds.base import Exercise, Kind
from grader.kinds.registry import KINDS
from grader.result import Result, Verdict
from grader.runner_data import run_data, runner_data

TOML = 'kind = "guess"\nlabel = "Guess"\nprompt = "Which number?"\nanswer = 7\n'


def _spec(path, spec):
    if not isinstance(spec["answer"], int):
        raise ExerciseError(f"{path}: `answer` must be a whole number")
    return spec


def _make(folder, spec, codes):
    return Exercise(
        id=folder.name,
        kind=spec["kind"],
        design=spec["design"],
        label=spec["label"],
        ops=("guess",),
        prompt=spec["prompt"],
        hints=(),
        why="",
        checks=(),
        stubs={"guess": ""},
        solutions={"guess": str(spec["answer"])},
        known_wrong=(),
        version="1",
    )


def _judge(exercise, bodies, observation, exercises, told):
    """The run's report says what the learner's guess evaluated to."""
    right = observation.get("value") == int(exercise.solutions["guess"])
    verdict = Verdict.PASS if right else Verdict.FAIL
    return Result(exercise=exercise.id, verdict=verdict, summary="Right." if right else "No.")


GUESS = Kind(
    name="guess",
    keys=frozenset({"kind", "label", "prompt", "answer"}),
    required=("kind", "label", "prompt", "answer"),
    spec=_spec,
    make=_make,
    judge=_judge,
    runner=lambda exercise: {"kind": exercise.kind, "ops": list(exercise.ops)},
    widget=lambda exercise, catalog: {"scope": {"guess": []}},
    starter=("blank guess", ()),
    references="none",
)


@pytest.fixture
def guess(tmp_path, monkeypatch):
    monkeypatch.setitem(KINDS, GUESS.name, GUESS)
    (tmp_path / "seven").mkdir()
    (tmp_path / "seven" / "exercise.toml").write_text(TOML)
    return load_catalog(tmp_path)


def test_a_registered_kind_is_loaded_from_its_folder(guess):
    exercise = guess["seven"]
    assert (exercise.kind, exercise.ops, exercise.solutions) == (
        "guess",
        ("guess",),
        {"guess": "7"},
    )
    starter = [answer[2:] for answer in expectations(guess) if answer[1] == "blank guess"]
    assert starter == [({"guess": ""}, False, ())]


def test_its_own_keys_and_checks_apply(tmp_path, monkeypatch):
    monkeypatch.setitem(KINDS, GUESS.name, GUESS)
    (tmp_path / "seven").mkdir()
    (tmp_path / "seven" / "exercise.toml").write_text(TOML.replace("7", '"seven"'))
    with pytest.raises(ExerciseError, match="`answer` must be a whole number"):
        load_catalog(tmp_path)
    (tmp_path / "seven" / "exercise.toml").write_text(TOML + "answr = 1\n")
    with pytest.raises(ExerciseError, match="did you mean `answer`"):
        load_catalog(tmp_path)


def test_an_unregistered_kind_is_refused(tmp_path):
    (tmp_path / "seven").mkdir()
    (tmp_path / "seven" / "exercise.toml").write_text(TOML)
    with pytest.raises(ExerciseError, match="`kind` must be one of op, graph, checker, engine"):
        load_catalog(tmp_path)


def test_the_judge_asks_the_kind(guess):
    assert judge("seven", {"guess": "7"}, {"value": 7}, guess).verdict is Verdict.PASS
    assert judge("seven", {"guess": "3 + 3"}, {"value": 6}, guess).verdict is Verdict.FAIL


def test_the_runner_s_and_the_widget_s_data_ask_the_kind(guess):
    known = runner_data(guess)
    assert known["exercises"] == {"seven": {"kind": "guess", "ops": ["guess"]}}
    assert run_data(known, guess["seven"]) == {"designs": {}, "exercises": known["exercises"]}
    [shown] = widget_data(["seven"], guess, str)["exercises"]
    assert (shown["kind"], shown["scope"], shown["solutions"]) == (
        "guess",
        {"guess": []},
        {"guess": "7"},
    )
