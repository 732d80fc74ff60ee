"""Numbers as the learner reads them: the one place a number becomes text."""

import math

from runner.precision import PLACES


def seven(number):
    """A number at seven decimals, as tables show it: no "-0.0000000", and nan/inf by name."""
    if not math.isfinite(number):
        return str(number)
    return f"{round(number, PLACES) + 0.0:.{PLACES}f}"


def brief(number):
    """A number as short as it can be said, to seven decimals: 2.0, -0.4621172."""
    return repr(round(number, PLACES) + 0.0)


def figure(value):
    """A decoded value (runner/numbers.py) at seven decimals, or the name of what it was."""
    return seven(value) if isinstance(value, float) else str(value)


def tuple_text(values, number=brief):
    """A tuple of local gradients as Python writes it, each number said by `number`: (2.0,)."""
    texts = [number(v) if isinstance(v, float) else str(v) for v in values]
    return "(" + ", ".join(texts) + ("," if len(texts) == 1 else "") + ")"
