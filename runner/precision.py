"""The one seven-decimal rule: the judge's (grader/), and the lesson pages' claims'
(runner/claims.py), which the build and the page's Python session both hold; grader/figures.py
shows numbers to the learner with it."""

import math

PLACES = 7


def agrees(got, expected):
    """True when `got` equals `expected` to seven decimals, as unittest's assertAlmostEqual."""
    return math.isfinite(got) and round(got - expected, PLACES) == 0
