"""The one seven-decimal rule, and how a number is shown to the learner."""

import math

PLACES = 7


def agrees(got, expected):
    """True when `got` equals `expected` to seven decimals, as unittest's assertAlmostEqual."""
    return math.isfinite(got) and round(got - expected, PLACES) == 0


def shown(number):
    """A number as the learner sees it: seven decimals, no "-0.0000000", and nan/inf by name."""
    if not math.isfinite(number):
        return str(number)
    return f"{round(number, PLACES) + 0.0:.{PLACES}f}"
