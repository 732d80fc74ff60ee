"""The grader's result: what the learner reads, built once (grader/present.py), frozen, as
plain data by `to_dict()`. Every record is made by keyword and holds tuples, not lists.

ARCHITECTURE.md shows the JSON. Results the page makes itself (a stopped run, a crashed
Python) have the same shape (widget/src/exercise/page-results.js).
"""

from dataclasses import dataclass, field, fields, is_dataclass
from enum import StrEnum
from functools import cache

RECORD = {"frozen": True, "kw_only": True}
JUDGE_ONLY = {"json": False}  # a field the judge uses to write the result, not part of it


class Verdict(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"  # the page adds "stopped" for a run it ended


@dataclass(**RECORD)
class Row:
    """One checked value: what the learner's code gave and what was expected."""

    value: str  # "x.grad"
    node: int  # the node's index in its check's graph
    got: float | None  # None when not a finite number
    expected: float
    got_text: str
    expected_text: str
    passed: bool
    why: str  # what the value should have been, and where that comes from
    diagnoses: tuple = ()


@dataclass(**RECORD)
class GraphNode:
    """A node of a check's graph as the page draws it."""

    id: int
    name: str
    op: str  # the op's symbol, "" for a leaf
    inputs: tuple  # ids of its inputs
    data_text: str
    grad_text: str  # what the learner's code left in .grad
    expected_text: str
    state: str  # "right", "wrong" or "unchecked"


@dataclass(**RECORD)
class Change:
    """What one step did to one node's grad (or data)."""

    node: int
    what: str  # "grad" or "data"
    before_text: str
    after_text: str
    kind: str  # "added", "replaced", "changed"


@dataclass(**RECORD)
class Step:
    """One call of a node's closure (or one node's local gradients applied)."""

    node: int
    label: str  # the op's label: "__mul__"
    depth: int  # 0 when backward() called it, 1 when another closure did
    changes: tuple
    local_grads_text: str = ""  # local_grads design: the tuple the learner's code gave
    note: str = ""  # what went wrong in this step, when something did


@dataclass(**RECORD)
class Check:
    built: str  # the check's build code
    given: str  # "x = 2.0, y = -3.0, out.grad = 0.5"
    passed: bool
    complete: bool  # False when the learner's code raised during this check
    rows: tuple
    nodes: tuple
    steps: tuple
    start: tuple = ()  # each node's grad as backward() began
    steps_dropped: bool = False


@dataclass(**RECORD)
class Culprit:
    """An op whose code explains wrong numbers (grader/diagnosis/diagnose.py): its diagnoses,
    what its code did, and the step that shows it (`check`, and `step`, its index among the
    check's steps as the page shows them; None when no step does). `reading`: what its code says
    in its own words, how Python reads a line of it that reads otherwise
    (grader/diagnosis/reading.py) and advice naming its names (grader/diagnosis/advice.py), said
    instead of the diagnoses it `covers`."""

    op: str
    label: str
    diagnoses: tuple
    sentence: str
    check: int | None = None
    step: int | None = None
    reading: str = field(default="", metadata=JUDGE_ONLY)  # said in the result's diagnosis
    covers: tuple = field(default=(), metadata=JUDGE_ONLY)


@dataclass(**RECORD)
class Error:
    """Why a run stopped: where and why the learner's code raised, as the runner told it
    (runner/errors.py; grader/observation.py decodes it), or why its report cannot count."""

    type: str
    message: str
    summary: str
    text: str
    slot: str | None = None  # the op whose code raised, if one did
    label: str | None = None
    line: int | None = None  # counted from the first line of the learner's code
    source_line: str = ""
    name: str | None = None  # the name a NameError is about
    builtin: str | None = None  # the built-in the code used as a Value


@dataclass(**RECORD)
class Result:
    exercise: str
    verdict: Verdict
    summary: str
    checks: tuple = ()
    error: Error | None = None
    stubs: tuple = ()  # ops whose code is still the starter code
    diagnoses: tuple = ()  # keys of grader/diagnosis/explain.py's DIAGNOSES
    diagnosis: str = ""  # why the numbers are wrong, when the grader can tell
    culprits: tuple = ()
    stdout: str = ""
    stdout_truncated: bool = False
    stdout_lines: int = 0  # the lines printed, all of them (stdout keeps a beginning)

    def to_dict(self):
        return _plain(self)

    @property
    def rows(self):
        return [row for check in self.checks for row in check.rows]


def _plain(value):
    """`value` as dicts, lists and scalars: `dataclasses.asdict` without its deep copies of
    every leaf, which took half of judging a run."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, StrEnum):
        return value.value
    if is_dataclass(value):
        return {name: _plain(getattr(value, name)) for name in _names(type(value))}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


_SCALARS = {str, int, float, bool, type(None)}


@cache
def _names(kind):
    return tuple(f.name for f in fields(kind) if f.metadata.get("json", True))
