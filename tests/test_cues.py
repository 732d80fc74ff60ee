"""What a body's code says about itself (grader/cues.py), for mistakes that numbers alone
cannot tell apart."""

import pytest

from grader.cues import builtin_names, code_cues


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
