"""The maintainers' check: every reference passes, every stub and known-wrong answer fails,
each wrong answer with the explanation it deserves, through the grader the browser runs."""

import pytest

from grader import grade
from grader.catalog import load_catalog
from grader.report import expectations, explanations

ANSWERS = list(expectations(load_catalog()))


@pytest.mark.parametrize(
    ("exercise", "name", "bodies", "verdict", "wanted"),
    ANSWERS,
    ids=[f"{answer[0].id}: {answer[1]}" for answer in ANSWERS],
)
def test_answer_gets_its_verdict_and_explanation(exercise, name, bodies, verdict, wanted):
    result = grade(exercise.id, bodies)
    assert result["verdict"] == verdict, result["summary"]
    assert explanations(result) == tuple(wanted)


def test_every_op_has_the_classic_wrong_answers(exercises):
    """Each op's catalogue holds at least `=`, a missing out.grad and a wrong local derivative."""
    for slot in ("add", "mul", "pow", "tanh", "exp"):
        keys = {key for mistake in exercises[slot].mistakes for key in mistake.explains}
        assert {"assign", "no_upstream"} <= keys, slot
        assert keys - {"assign", "no_upstream", "one_operand", "not_a_number"}, slot


def test_each_op_is_checked_on_several_inputs_and_upstream_gradients(exercises):
    for slot in ("add", "mul", "pow", "tanh", "exp"):
        checks = exercises[slot].checks
        assert len({tuple(check.leaves.values()) for check in checks}) >= 3, slot
        assert any(check.grad != 1.0 for check in checks), slot


def test_diamond_reports_which_closures_are_still_stubs(exercises):
    bodies = dict(exercises["diamond"].solutions, tanh=exercises["tanh"].stubs["tanh"])
    result = grade("diamond", bodies)
    assert result["verdict"] == "fail"
    assert result["stubs"] == ["tanh"]
    assert "Still the starter stub: tanh." in result["summary"]


def test_diamond_values_from_the_lessons(exercises):
    """a.grad 15 in the diamond (both orders), 4 in the chain, and the neuron's grads."""
    result = grade("diamond", exercises["diamond"].solutions)
    got = [(row["value"], row["expected_text"]) for row in result["checks"]]
    assert got[:3] == [("a.grad", "15.0000000"), ("b.grad", "6.0000000"), ("c.grad", "3.0000000")]
    assert got[3:6] == got[:3]
    assert got[6:8] == [("a.grad", "4.0000000"), ("b.grad", "2.0000000")]
    neuron = dict(got[8:13])
    assert neuron == {
        "x1.grad": "-1.5000000", "x2.grad": "0.5000000", "w1.grad": "1.0000000",
        "w2.grad": "0.0000000", "b.grad": "0.5000000",
    }
    assert dict(got[13:18]) == neuron


def test_an_equals_bug_fails_in_either_operand_order(exercises):
    """With `=` in __mul__, `b * c` happens to pass, `c * b` must not."""
    wrong = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
    result = grade("diamond", dict(exercises["diamond"].solutions, mul=wrong))
    first, second = result["checks"][0:3], result["checks"][3:6]
    assert all(row["passed"] for row in first)
    assert not second[0]["passed"] and second[0]["got_text"] == "9.0000000"
