"""The one seven-decimal rule (grader/figures.py shows numbers to the learner)."""

import math

PLACES = 7


def agrees(got, expected):
    """True when `got` equals `expected` to seven decimals, as unittest's assertAlmostEqual."""
    return math.isfinite(got) and round(got - expected, PLACES) == 0
