"""The disclosure ladder: the course tells an op's local derivative only to a learner who has
reached its formula rung (the tab's last hint shown, the tab passed once, or its solution
shown). Below it, every word the grader shows is numbers, the chain rule's bookkeeping and a
way to measure; `told` is the set of ops whose rule may be said (the page decides it,
widget/src/exercise/ladder.js).

`tells(text, ops)` finds a local derivative stated in any notation: each op lists the ways its
rule is written (`Op.tells`, grader/ops.py), matched against the text normalized here; a
checker exercise's slot (`checker`) lists the ways its formulas are (`grader/checker.py` TELLS).
"""

import re

from runner.checker import SLOT

from . import checker
from .ops import OPS

# how the same formula is typed, printed or typeset, brought to one spelling
SPELLINGS = {
    "−": "-",
    "–": "-",
    "×": "*",
    "·": "*",
    "⋅": "*",
    "∙": "*",
    "ⁿ⁻¹": "**(n-1)",
    "⁻ˣ": "**-x",
    "ⁿ": "**n",
    "ˣ": "**x",
    "²": "**2",
    "^": "**",
    "′": "'",
    "’": "'",
    "`": "",
    "\\sigma": "σ",
    "\\cdot": "*",
    "\\times": "*",
    "\\,": "",
    "\\": "",
    "{": "(",
    "}": ")",
}
SPELLING = re.compile("|".join(map(re.escape, sorted(SPELLINGS, key=len, reverse=True))))


def normalized(text):
    """`(spaced, compact)`: the text lower-cased in one spelling, with its runs of white space
    made one space, and with none."""
    text = SPELLING.sub(lambda found: SPELLINGS[found.group()], text.lower())
    spaced = " ".join(text.split())
    return spaced, spaced.replace(" ", "")


def tells(text, ops=None):
    """`[(op, the words that state its rule)]` found in `text`, for `ops` (default: every op).
    A pattern with a space is read against the spaced text, any other against the compact."""
    spaced, compact = normalized(text)
    found = []
    for name in ops if ops is not None else [*OPS, SLOT]:
        for pattern in OPS[name].tells if name in OPS else checker.TELLS:
            match = re.search(pattern, spaced if " " in pattern else compact)
            if match:
                found.append((name, match.group()))
    return found


def told_ops(exercise, told):
    """The ops of `exercise` whose rule may be said: `told` as the page sent it (any JSON),
    cut to the exercise's own ops."""
    if not isinstance(told, (list, tuple, set, frozenset)):
        return frozenset()
    return frozenset(op for op in told if isinstance(op, str) and op in exercise.ops)
