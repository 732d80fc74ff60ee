"""Numbers as JSON carries them from the runner to the judge: JSON has no nan or infinity,
and a learner's gradient may be neither an int nor a float at all."""

import math

NOT_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
_TYPE_NAME = type.__dict__["__name__"]  # a class's real name, whatever its metaclass claims


def finite(number):
    """Whether `number` is a number, and finite."""
    return isinstance(number, (int, float)) and math.isfinite(number)


def encode(value):
    """`value` as JSON can carry it: a finite float; "nan", "inf" or "-inf"; "huge" for an int
    too large for a float; `{"type": name}` for anything that is not an int or a float. A float
    of a subclass (numpy's float64 is one) counts by its value, whatever its methods say."""
    kind = type(value)
    if kind is not int and not issubclass(kind, float):
        return {"type": _TYPE_NAME.__get__(kind)[:100]}
    try:
        number = float.__float__(value) if kind is not int else float(value)
    except OverflowError:
        return "huge"
    return number if math.isfinite(number) else str(number)


LARGEST_INT = 2**1023  # a float holds every integer up to here, rounded


def decode(item):
    """What `encode` gave: a float (maybe nan or inf), or the name of what was not a number.
    Raises ValueError for anything `encode` never gives."""
    if type(item) is int:  # JSON's integers have no bound: one too large for a float is huge
        return float(item) if abs(item) <= LARGEST_INT else math.inf
    if type(item) is float and math.isfinite(item):
        return item
    if item == "huge":
        return math.inf
    if isinstance(item, str) and item in NOT_FINITE:
        return NOT_FINITE[item]
    if isinstance(item, dict) and list(item) == ["type"] and isinstance(item["type"], str):
        return item["type"][:100]
    raise ValueError(f"not an encoded number: {item!r:.60}")
