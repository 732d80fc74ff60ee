"""The rule a lesson page's numbers in the prose are held to (`**≈ 0.0148**{ data-check="expr" }`):
the last number in the text must equal the expression's value where the claim stands. With `≈`
in the text, the value is rounded as shown; without it, it must agree to seven decimals. The
build holds a page to it (course/pagetruth.py), and so does the page's Python session
(runner/notebook.py) when the learner has changed the code."""

import re

from .precision import agrees

NUMBER = re.compile(r"[-−]?\d+(?:\.\d+)?")


def claimed_number(text):
    """The last number written in a claim's text, as a float (a Unicode minus counts)."""
    numbers = NUMBER.findall(text)
    if not numbers:
        raise ValueError(f"the claim {text!r} holds no number")
    return float(numbers[-1].replace("−", "-"))


def claim_holds(text, value):
    """Whether `value` bears out the number in `text` (see the module's docstring)."""
    shown = claimed_number(text)
    if "≈" in text:
        decimals = len(NUMBER.findall(text)[-1].partition(".")[2])
        return round(value, decimals) == shown
    return agrees(value, shown)
