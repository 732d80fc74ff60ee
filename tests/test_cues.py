"""What a body's code says about itself (grader/diagnosis/cues.py), for mistakes that numbers
alone cannot tell apart; how Python reads its lines (grader/diagnosis/reading.py); and the advice
said with its own names (grader/diagnosis/advice.py)."""

import ast

import pytest

from grader.diagnosis import explain
from grader.diagnosis.advice import advice, bare_values, reads_upstream
from grader.diagnosis.cues import builtin_names, code_cues
from grader.diagnosis.reading import reading
from grader.exercises import catalog


@pytest.mark.parametrize(
    ("body", "cues"),
    [
        ("self.grad += other.data * out.grad", set()),
        ("def _backward():\n    self.grad += 1", {"nested_def"}),
        ("self.grad += other.grad * out.grad", {"grad_for_data"}),
        ("self.grad = self.grad + out.grad", set()),  # reading its own grad to add to it
        ("self.grad += out.grad\nother.backward()", {"calls_backward"}),
        ("self._backward()\nf(1)", {"calls_closure"}),
        ("self.data += out.grad", {"data_changed"}),
        ("grad = other.data * out.grad", {"local_only"}),
        ("self.grad += (", set()),  # not Python: no cue
    ],
)
def test_cues(body, cues):
    assert code_cues(body) == cues


def test_builtin_names_are_the_ones_the_op_never_defines():
    scope = ["self", "other", "out", "math"]
    assert builtin_names("sum.grad += out.grad", scope) == ["sum"]
    assert builtin_names("self.grad += pow * x ** (pow - 1)", scope) == ["pow"]
    assert builtin_names("self.grad += other.data * out.grad  # max", scope) == []
    assert builtin_names("self.sum += 1", scope) == []  # an attribute, not a name


@pytest.mark.parametrize(
    ("body", "read"),
    [
        # a power with a number for exponent is read as the learner wrote it
        ("self.grad += (t**2 - 1) * out.grad", ""),
        ("self.grad += (1 - t**2) * out.grad", ""),
        # a power with a name for exponent is not: `x ** (n - 1)` is a likely meaning
        ("self.grad += other * x ** other - 1", "`(other * (x ** other)) - 1`"),
        ("self.grad += x > 0 * out.grad", "`x > (0 * out.grad)`"),
        ("self.grad += 1 if x > 0 else 0 * out.grad", "`1 if x > 0 else (0 * out.grad)`"),
        # the learner's own brackets: Python's grouping is what they wrote
        ("self.grad += x > (0 * out.grad)", ""),
        ("self.grad += 1 - (t**2 * out.grad)", ""),
        ("self.grad += (other * x ** other) - 1", ""),
        ("self.grad += 1 - t**2 * out.grad", "`1 - ((t ** 2) * out.grad)`"),
        ("self.grad += -x ** 2 * out.grad", "`(-(x ** 2)) * out.grad`"),
        ("self.grad += -(x ** 2) * out.grad", ""),
        ("self.grad += (x > 0) * out.grad", ""),
    ],
)
def test_python_s_grouping_is_told_only_where_it_is_not_what_was_written(body, read):
    said, _ = reading(body, [])
    assert (read in said) if read else said == ""


def test_a_comparison_s_grouping_is_not_told_where_the_numbers_have_another_cause():
    body = "self.grad = (out.data > 0) * out.grad if out.data > 0 else 0"
    assert reading(body, ["assign"]) == ("", ())


def test_a_grouping_that_takes_out_grad_into_a_comparison_says_it_instead_of_left_out():
    assert reading("self.grad += x > 0 * out.grad", ["no_upstream"])[1] == ("no_upstream",)
    assert reading("self.grad += 1 if x > 0 else 0 * g", ["no_upstream"])[1] == ()


def test_an_equals_minus_says_the_sign_too():
    _, covers = reading("self.grad =- (out.data > 0) * out.grad", [])
    assert covers == ("assign", "opposite_sign")
    assert reading("self.grad =+ out.grad", [])[1] == ("assign",)


@pytest.mark.parametrize(
    ("body", "reads"),
    [
        ("self.grad += (1 - t**2) * out.grad", True),
        ("g = out.grad\nlocal = 1 - t**2\nself.grad += local * g", True),
        ("share = (1 - t**2) * out.grad\nself.grad += share", True),
        ("g = out.grad\nself.grad += 1 - t**2", False),  # read, never reaching the grad
        ("self.grad += 1 - t**2", False),
        ("print(out.grad)\nself.grad += 1 - t**2", False),
    ],
)
def test_out_grad_counts_only_in_what_reaches_a_grad(body, reads):
    assert reads_upstream(ast.parse(body)) is reads


def test_the_values_a_body_uses_as_they_are():
    values = ["self", "other", "out"]
    assert bare_values(ast.parse("self.grad += (1 - self**2) * out.grad"), values) == ["self"]
    assert bare_values(ast.parse("self.grad += other * out.grad"), values) == ["other"]
    assert bare_values(ast.parse("self.grad += other.data * out.grad"), values) == []


@pytest.mark.parametrize(
    ("keys", "says", "covers"),
    [
        (["no_upstream"], "The local derivative in your code is right", ("no_upstream",)),
        (["assign", "no_upstream"], "The local derivative in your code is right", ("no_upstream",)),
        # a wrong rule and no out.grad: each is said in its own words
        (["tanh_not_squared", "no_upstream"], "", ()),
        (["opposite_sign", "no_upstream"], "", ()),
    ],
)
def test_a_missing_out_grad_says_whether_the_rest_of_the_share_is_right(keys, says, covers):
    said, covered = advice("self.grad += 1 - t", keys, "tanh", "closures")
    assert (says in said) if says else said == ""
    assert covered == covers


def test_a_value_in_a_number_names_the_value_written_and_only_the_op_s_values():
    said, covers = advice(
        "self.grad += (1 - self**2) * out.grad", ["not_a_number"], "tanh", "closures"
    )
    assert "where you wrote `self`, use `self.data`." in said and covers == ("not_a_number",)
    assert "other" not in explain.words("not_a_number", catalog()["tanh"], ())
