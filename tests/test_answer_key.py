"""The answer key's closed-form gradients agree with central finite differences."""

from dataclasses import replace

import pytest

from grader.answer_key import Node
from grader.catalog import load_catalog
from grader.grade import answer, build

CHECKS = [(exercise.id, check) for exercise in load_catalog().values()
          for check in exercise.checks]
STEP = 1e-6


def numeric_gradient(check, name):
    """d(output)/d(name) times the seeded gradient, by central differences."""
    def output_at(shift):
        leaves = dict(check.leaves, **{name: check.leaves[name] + shift})
        return build(replace(check, leaves=leaves), lambda value, _: Node(value))[0].data
    return check.grad * (output_at(STEP) - output_at(-STEP)) / (2 * STEP)


@pytest.mark.parametrize(("exercise", "check"), CHECKS,
                         ids=[f"{e}: {c.build.splitlines()[-1]}" for e, c in CHECKS])
def test_expected_gradients_match_finite_differences(exercise, check):
    expected, _ = answer(check)
    for name in check.leaves:  # inner nodes are covered through the leaves they feed
        assert expected[name] == pytest.approx(numeric_gradient(check, name), abs=1e-6), name
