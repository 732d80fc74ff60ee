"""The gradient checker's exercise (`kind = "checker"`): its checks as exercise.toml gives them,
and the answer key, computed here by the course's own formulas (never by the reference code).

The learner writes three functions in one slot, `checker`: `numerical_grad(f, x, h)`,
`relative_error(a, b)` and `check(f, x, grad)` (the relative error of their numerical
gradient at the h they choose against `grad`). Each check calls one of them:

    [[checks]]
    call = "numerical_grad"   # or "relative_error" (a, b) or "check" (f, x, df)
    f = "x ** 3"              # a function of x, as a Python expression (`math` is there)
    x = 2.0
    h = 0.001
"""

import math
from dataclasses import dataclass

from runner.checker import SLOT, arguments

CALLS = {
    "numerical_grad": ("f", "x", "h"),
    "relative_error": ("a", "b"),
    "check": ("f", "x", "df"),
}
TEXTS = {"f", "df"}  # the rest are numbers
KEYS = {"kind", "design", "label", "prompt", "hints", "why", "checks"}
REQUIRED = ("kind", "label", "prompt", "checks")
TINY = 1e-300  # the floor under relative_error's denominator: two zeros agree
GOOD_H = 1e-5  # the h the answer key's `check` measures with


@dataclass(frozen=True)
class CheckerCheck:
    """One call of one of the learner's functions, on fixed arguments."""

    call: str
    given: dict  # argument name -> number, or the text of a function of x

    def data(self):
        """As the runner reads it (runner/checker.py)."""
        return {"call": self.call, **self.given}

    @property
    def built(self):
        return f"{self.call}({', '.join(CALLS[self.call])})"

    @property
    def given_text(self):
        return ", ".join(
            f"f(x) = {v}" if k == "f" else f"f'(x) = {v}" if k == "df" else f"{k} = {v!r}"
            for k, v in self.given.items()
        )


def checker_check(table, path, error):
    """A check of exercise.toml, its keys and types checked; `error` makes the exception."""
    call = table.get("call") if isinstance(table, dict) else None
    if call not in CALLS:
        raise error(f"{path}: every check needs `call`, one of {', '.join(CALLS)}")
    given = {key: value for key, value in table.items() if key != "call"}
    if set(given) != set(CALLS[call]):
        raise error(f"{path}: a check of `{call}` gives exactly {', '.join(CALLS[call])}")
    for key, value in given.items():
        text = key in TEXTS
        if text and not isinstance(value, str) or not text and not _number(value):
            raise error(
                f"{path}: `{key}` of a `{call}` check must be a {'text' if text else 'number'}"
            )
    check = CheckerCheck(call, {k: v if k in TEXTS else float(v) for k, v in given.items()})
    try:
        if not math.isfinite(expected(check)):
            raise ValueError("not a finite number")
    except Exception as problem:  # noqa: BLE001 - an instructor's function may raise anything
        raise error(
            f"{path}: the check {check.built} with {check.given_text} cannot be computed: {problem}"
        ) from None
    return check


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def central(f, x, h):
    return (f(x + h) - f(x - h)) / (2 * h)


def relative(a, b):
    return abs(a - b) / max(abs(a), abs(b), TINY)


def expected(check):
    """What the course's own checker returns on `check`."""
    args = arguments(check.data())
    if check.call == "relative_error":
        return relative(*args)
    if check.call == "numerical_grad":
        return central(*args)
    f, x, grad = args
    return relative(central(f, x, GOOD_H), grad)


def checker_spec(path, spec, error):
    """exercise.toml of a checker exercise, checked, as a new dict: its slot is `checker`."""
    missing = [key for key in REQUIRED if key not in spec]
    if missing:
        raise error(f"{path}: {', '.join(missing)} missing")
    hints = spec.get("hints", [])
    if not isinstance(hints, list) or not all(isinstance(hint, str) for hint in hints):
        raise error(f"{path}: `hints` must be a list of texts")
    if not isinstance(spec["checks"], list) or not spec["checks"]:
        raise error(f"{path}: `checks` must list at least one check")
    checks = tuple(checker_check(table, path, error) for table in spec["checks"])
    return spec | {"ops": (SLOT,), "checks": checks}


# the classic wrong checkers (each answer of .meta/wrong_answers.toml names the one it makes)
DIAGNOSES = {
    "forward": "numerical_grad measures on one side of x only",
    "absolute": "relative_error returns the absolute difference",
    "h_too_small": "check measures with an h so small that rounding swamps the difference",
    "h_too_large": "check measures with an h so large that the curve's bend shows",
}
# how the checker's formulas are written, as grader/disclosure.py reads them (Op.tells' way)
TELLS = (
    r"\w*\(x\+h\)\)?-\w*\(x-h\)",  # f(x+h) - f(x-h), in any function's name
    r"x-h\)\)?/\(?2\*?h",  # ... (x - h)) / (2h)
    r"central[- ]differenc",
    r"(both|either|two) sides? of x",
    r"x ?- ?h\b.{0,24}\bx ?\+ ?h",  # "from x - h to x + h"
    r"\|?a-b\|?/max\(",  # |a - b| / max(|a|, |b|, ...)
    r"by the larger of \|?a\|?",
)
