"""The answer key's closed-form gradients agree with central finite differences."""

from dataclasses import replace

import pytest

from grader.answer_key import Node, answer
from grader.exercises import load_catalog

CHECKS = [
    (exercise.id, check)
    for exercise in load_catalog().values()
    if exercise.kind != "checker"  # its answer key is tests/test_checker.py's
    for check in exercise.checks
]
STEP = 1e-6


def numeric_gradient(check, name, left=False):
    """d(output)/d(name) times the seeded gradient, by central differences (or from the left,
    where micrograd's ReLU takes its slope at the kink)."""

    def output_at(shift):
        leaves = dict(check.leaves, **{name: check.leaves[name] + shift})
        return replace(check, leaves=leaves).graph(lambda value, _: Node(value))[0].data

    if left:
        return check.grad * (output_at(0.0) - output_at(-STEP)) / STEP
    return check.grad * (output_at(STEP) - output_at(-STEP)) / (2 * STEP)


@pytest.mark.parametrize(
    ("exercise", "check"), CHECKS, ids=[f"{e}: {c.build.splitlines()[-1]}" for e, c in CHECKS]
)
def test_expected_gradients_match_finite_differences(exercise, check):
    nodes, space = answer(check)
    kink = any(node.op and node.op.name == "relu" and node.operands[0].data == 0 for node in nodes)
    for name in check.leaves:  # inner nodes are covered through the leaves they feed
        numeric = numeric_gradient(check, name, left=kink)
        assert space[name].grad == pytest.approx(numeric, abs=1e-5), name
