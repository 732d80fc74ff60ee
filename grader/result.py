"""The grader's result: what the learner reads, built once, as plain data (`to_dict()`).

ARCHITECTURE.md shows the JSON. Results the page makes itself (a stopped run, a crashed
Python) have the same shape (widget/src/exercise/page-results.js).
"""

from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache


@dataclass
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
    diagnoses: list = field(default_factory=list)


@dataclass
class GraphNode:
    """A node of a check's graph as the page draws it."""

    id: int
    name: str
    op: str  # the op's symbol, "" for a leaf
    inputs: list  # ids of its inputs
    data_text: str
    grad_text: str  # what the learner's code left in .grad
    expected_text: str
    state: str  # "right", "wrong" or "unchecked"


@dataclass
class Change:
    """What one step did to one node's grad (or data)."""

    node: int
    what: str  # "grad" or "data"
    before_text: str
    after_text: str
    kind: str  # "added", "replaced", "changed"


@dataclass
class Step:
    """One call of a node's closure (or one node's local gradients applied)."""

    node: int
    label: str  # the op's label: "__mul__"
    depth: int  # 0 when backward() called it, 1 when another closure did
    changes: list
    local_grads_text: str = ""  # local_grads design: the tuple the learner's code gave
    note: str = ""  # what went wrong in this step, when something did


@dataclass
class Check:
    built: str  # the check's build code
    given: str  # "x = 2.0, y = -3.0, out.grad = 0.5"
    passed: bool
    complete: bool  # False when the learner's code raised during this check
    rows: list
    nodes: list
    steps: list
    start: list = field(default_factory=list)  # each node's grad as backward() began
    steps_dropped: bool = False


@dataclass
class Culprit:
    """An op whose code explains wrong numbers, with the step that shows it."""

    op: str
    label: str
    diagnoses: list
    sentence: str
    check: int | None = None
    step: int | None = None  # its index among the check's steps as the page shows them


@dataclass
class Result:
    exercise: str
    verdict: str = "pass"  # pass, fail or error (the page adds "stopped")
    summary: str = ""
    checks: list = field(default_factory=list)
    error: dict | None = None
    stubs: list = field(default_factory=list)  # ops whose code is still the starter code
    diagnoses: list = field(default_factory=list)  # keys of grader/explain.py's DIAGNOSES
    diagnosis: str = ""  # why the numbers are wrong, when the grader can tell
    culprits: list = field(default_factory=list)
    stdout: str = ""
    stdout_truncated: bool = False

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
    return tuple(f.name for f in fields(kind))
