"""The nudge tool (runner/nudge.py): at every check's inputs, on every op's tab of both designs,
the central difference matches the answer key to 1e-6, and the reference code's gradient matches
it to seven decimals; a wrong closure shows what it got beside the slope, and nothing it does is
a verdict."""

import dataclasses
import json

import pytest

from grader.answer_key import answer
from grader.exercises import catalog
from runner.nudge import nudge, nudge_json
from runner.precision import agrees

EXERCISES = catalog()
OPS = [exercise for exercise in EXERCISES.values() if exercise.kind == "op"]


@pytest.fixture(autouse=True, scope="module")
def known(runner_zip_data):
    return runner_zip_data


@pytest.mark.parametrize("exercise", OPS, ids=[exercise.id for exercise in OPS])
def test_the_slopes_match_the_answer_key_at_every_check(exercise):
    [op] = exercise.ops
    for index, check in enumerate(exercise.checks):
        nodes, space = answer(dataclasses.replace(check, grad=1.0))
        key = {name: space[name].grad for name in check.leaves}
        found = nudge(exercise.id, {op: exercise.solutions[op]}, check_index=index)
        assert found["error"] is None
        for item in found["inputs"]:
            want = key[item["name"]]
            if "left" in item:  # a kink: the op's derivative there is one side's
                assert min(abs(item[side] - want) for side in ("left", "right")) < 1e-6
            else:
                assert abs(item["slope"] - want) < 1e-6, (exercise.id, check.build, item)
            assert agrees(item["got"], want), (exercise.id, check.build, item)


def test_a_kink_is_told_by_its_two_sides():
    [x] = nudge("relu", {}, {"x": 0.0})["inputs"]
    assert (x["left"], x["right"], x["slope"]) == (0.0, 1.0, 0.5)
    assert "left" not in nudge("relu", {}, {"x": 1.0})["inputs"][0]


def test_a_wrong_closure_shows_what_it_got_beside_the_slope():
    wrong = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
    [x] = nudge("mul", {"mul": wrong}, {"x": 3.0}, check_index=3)["inputs"]  # x * x
    assert (round(x["slope"], 6), x["got"]) == (6.0, 3.0)


def test_the_learner_s_values_and_h_are_used_and_bad_ones_replaced():
    found = json.loads(nudge_json("tanh", json.dumps({}), json.dumps({"x": "1e400", "q": 2}), -1))
    assert found["h"] == 1e-5 and [item["value"] for item in found["inputs"]] == [0.0]
    found = nudge("exp", {}, {"x": 2.0}, 0.001)
    assert found["h"] == 0.001 and found["inputs"][0]["value"] == 2.0


def test_code_that_raises_is_told_at_the_learner_s_line():
    found = nudge("mul", {"mul": "self.grad += other.data * out.grad\nraise ValueError('no')"})
    assert found["error"]["line"] == 2 and found["error"]["slot"] == "mul"
    assert nudge("local-mul", {"mul": "(other.data, self.data"})["error"]["type"] == "SyntaxError"


@pytest.mark.parametrize(
    ("exercise", "values", "why"),
    [
        ("pow", {"x": 0.0, "n": -1}, "Python says 0.0 cannot be raised to a negative power"),
        ("pow", {"x": -2.0, "n": 0.5}, "it is not a real number there"),  # (-2) ** 0.5 is complex
        ("local-pow", {"x": -2.0, "n": 0.5}, "it is not a real number there"),
        ("log", {"x": -1.0}, "Python says math domain error"),
    ],
)
def test_numbers_the_forward_pass_cannot_take_are_said_in_the_learner_s_terms(
    exercise, values, why
):
    """The untouched stub at numbers its op cannot take: the course's forward pass raised, not
    the learner's code; said with their build and numbers, never a line of the Value class nor a
    "complex" slope (widget/src/exercise/nudge.js shows the summary as it is, without "Your
    code raised")."""
    stub = EXERCISES[exercise].stubs
    found = nudge(exercise, dict(stub), values)
    error = found["error"]
    assert error["slot"] is None and found["inputs"] == [] and found["output"] is None
    assert error["summary"].startswith(f"{found['built']} cannot be measured at x = ")
    assert why in error["summary"] and "Try other numbers" in error["summary"]
    assert not any(word in error["summary"] for word in ("line", "Value class", "complex"))


def test_a_power_s_exponent_is_found_and_changed_in_an_expression_or_in_statements():
    from runner.nudge import exponent, with_exponent

    assert (exponent("x ** 2"), with_exponent("x ** 2", 3.0)) == (2, "x ** 3")
    assert with_exponent("x ** -1", "n") == "x ** n"
    statements = "n = x * y\no = n ** 2"
    assert exponent(statements) == 2
    assert with_exponent(statements, 0.5) == "n = x * y\no = n ** 0.5"
    assert exponent("x.tanh()") is None
