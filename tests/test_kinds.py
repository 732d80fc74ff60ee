"""A kind of exercise is a module of grader/kinds/ and an entry in its registry (AUTHORING.md,
"Adding a kind"): a toy kind registered there is loaded from its folder, judged, and given its
runner's and widget's data, with no other file told of it."""

import ast
from pathlib import Path

import pytest

from course.widget_data import widget_data
from grader.exercises import ExerciseError, expectations, load_catalog
from grader.judge import judge
from grader.kinds.base import Exercise, Kind
from grader.kinds.registry import KINDS
from grader.result import Result, Verdict
from grader.runner_data import run_data, runner_data

ROOT = Path(__file__).resolve().parent.parent
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


# The names exercise.toml gives the kinds, and where they may be compared with a string.
KIND_NAMES = frozenset(KINDS)
PACKAGES = ("grader", "runner", "course")
OWN = Path("grader/kinds")


def _kind_of(node):
    """Whether `node` reads an exercise's kind: `x.kind`, `kind`, `x["kind"]`, `x.get("kind")`;
    but not a page item's (`item.kind`: course/'s Markdown blocks, one of which is a "graph")."""
    if isinstance(node, ast.Attribute):
        return node.attr == "kind" and not (
            isinstance(node.value, ast.Name) and node.value.id == "item"
        )
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kind"
    if isinstance(node, ast.Call):
        getter = isinstance(node.func, ast.Attribute) and node.func.attr == "get"
        return getter and [getattr(a, "value", None) for a in node.args[:1]] == ["kind"]
    return isinstance(node, ast.Name) and node.id == "kind"


def _names_a_kind(node):
    """A string literal naming a kind, or a tuple, list or set of them."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_kind(element) for element in node.elts)
    return isinstance(node, ast.Constant) and node.value in KIND_NAMES


def kind_comparisons(source, where):
    """`where:line` of every comparison of an exercise's kind with a kind's name in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(map(_kind_of, sides)) and any(map(_names_a_kind, sides)):
                found.append(f"{where}:{node.lineno}")
    return found


def test_only_the_kinds_compare_a_kind_with_its_name():
    """What differs by kind is the Kind's to say (grader/kinds/registry.py): outside
    grader/kinds/, no Python of grader/, runner/ or course/ compares an exercise's kind (its
    `.kind`, a `kind` name, a dict's "kind") with "op", "graph", "checker" or "engine"; it asks
    its Kind, or reads the flag the Kind wrote into the Exercise or the runner's data. A page
    item's `item.kind` (course/pagecode.py's blocks: "graph", "quiz", ...) is not an exercise's."""
    found = [
        hit
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if OWN not in path.relative_to(ROOT).parents
        for hit in kind_comparisons(path.read_text(), path.relative_to(ROOT))
    ]
    assert not found, "the kind compared with its name outside grader/kinds/: " + ", ".join(
        map(str, found)
    )


def test_a_kind_compared_with_its_name_is_found():
    source = (
        'a = exercise.kind == "engine"\n'
        'b = kind != "op"\n'
        'c = entry.get("kind") in ("checker", "x")\n'
        'd = entry["kind"] == "graph"\n'
        'e = item.kind == "graph"\n'  # a page's graph block
        'f = exercise.kind == "quiz"\n'
    )
    assert kind_comparisons(source, "x.py") == ["x.py:1", "x.py:2", "x.py:3", "x.py:4"]
