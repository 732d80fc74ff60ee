"""The local-gradients widget (docs/local-gradients.md): microgpt's design, where the learner
writes each op's tuple of local derivatives, graded like the closures."""

import ast

import pytest
from learner import as_read, squash

from grader import grade
from grader.diagnosis.explain import DIAGNOSES, words


def local_exercises(exercises):
    return [e for e in exercises.values() if e.design == "local_grads"]


@pytest.fixture(scope="module")
def learner(local_learner):
    return local_learner


def test_the_widget_has_a_tab_for_each_op_and_the_graphs(learner, exercises):
    tabs = learner.widget.get_by_role("tab")
    shown = [squash(tabs.nth(i).inner_text()).rstrip(" •✓") for i in range(tabs.count())]
    assert shown == ["__add__", "__mul__", "__pow__", "log", "exp", "relu", "sigmoid", "graphs"]
    assert sorted(shown) == sorted(e.label for e in local_exercises(exercises))


def wrong_tuple(exercise):
    """The reference tuple swapped, where that changes it; else the first known-wrong tuple."""
    [op] = exercise.ops
    solution = exercise.solutions[op].strip()
    items = [ast.unparse(item) for item in ast.parse(solution, mode="eval").body.elts]
    if len(set(items)) == 2:
        return f"({items[1]}, {items[0]})"
    return exercise.known_wrong[0].bodies[op]


@pytest.mark.parametrize("op", ["add", "mul", "pow", "log", "exp", "relu", "sigmoid"])
def test_each_tab_passes_with_its_reference_and_fails_with_a_wrong_tuple(learner, exercises, op):
    exercise = exercises[f"local-{op}"]
    assert learner.solve(exercise.label, exercise.solutions[op]) == "pass"
    assert learner.passed_mark_visible(exercise.label)
    wrong = wrong_tuple(exercise)
    # the tab has passed: its rule is told from now on (grader/disclosure.py)
    expected = grade(exercise.id, {op: wrong}, told=[op])
    assert expected["verdict"] == "fail"
    assert learner.solve(exercise.label, wrong) == "fail"
    [key] = expected["diagnoses"]
    assert as_read(words(key, exercise, {op})) in learner.result_text()


def test_a_number_where_a_tuple_belongs_is_explained(learner):
    assert learner.solve("log", "1 / x") == "fail"
    assert as_read(DIAGNOSES["not_a_tuple"]) in learner.result_text()


def test_the_graphs_tab_runs_every_tuple_and_names_the_wrong_one(learner, exercises):
    for op in ("add", "mul", "pow", "log", "exp", "relu"):
        exercise = exercises[f"local-{op}"]
        learner.solve(exercise.label, exercise.solutions[op])
    learner.open_tab("graphs")
    assert learner.run() == "pass"
    learner.solve("__mul__", "(self.data, other.data)")
    learner.open_tab("graphs")
    assert learner.run() == "fail"
    swapped = {**exercises["local-graphs"].solutions, "mul": "(self.data, other.data)"}
    expected = grade("local-graphs", swapped, told=["add", "mul", "pow", "log", "exp", "relu"])
    [culprit] = expected["culprits"]
    assert culprit["label"] == "__mul__"
    assert as_read(culprit["sentence"]) in learner.result_text()
