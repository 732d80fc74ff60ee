"""Every kind of exercise, by the name exercise.toml gives it (`kind = "op"`): the loader
(grader/exercises.py), the judge, the runner's data and the widget's data ask `KINDS` for what
differs by kind. A new kind is a module of grader/kinds/ and an entry here (AUTHORING.md)."""

from .checker import CHECKER
from .engine import ENGINE
from .op import GRAPH, OP

KINDS = {kind.name: kind for kind in (OP, GRAPH, CHECKER, ENGINE)}


def kind_of(exercise):
    """The Kind of an Exercise."""
    return KINDS[exercise.kind]
