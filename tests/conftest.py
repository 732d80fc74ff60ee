import functools
import itertools
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from course import pagecode, quiz
from grader.exercises import load_catalog
from grader.runner_data import runner_data
from runner import fuzz, nudge, observe, value_class

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(scope="session")
def exercises():
    return load_catalog()


@pytest.fixture(scope="module")
def runner_zip_data(exercises):
    """The runner's data (grader/runner_data.py) where the runner's entry points read runner.zip's
    data.json (`value_class.data()`): for tests of those entry points, in CPython."""
    known = runner_data(exercises)
    with pytest.MonkeyPatch.context() as patch:
        for module in (observe, nudge, fuzz, value_class):
            patch.setattr(module, "data", lambda: known)
        yield known


def unused(name, taken):
    """`name`, or `name` and a number: one that `taken` does not hold. A test's made-up op or
    exercise, which must stay unknown whatever ops and exercises an instructor adds."""
    names = (f"{name}{i or ''}" for i in itertools.count())
    return next(candidate for candidate in names if candidate not in taken)


@dataclass
class PageRun:
    """What one run of a page found, item by item, for the tests below."""

    blocks: list = field(default_factory=list)  # (item, Ran) for each Python block
    claims: list = field(default_factory=list)  # (item, value of its expression, or the error)
    graphs: list = field(default_factory=list)  # (item, what its first line evaluates to)
    checks: list = field(default_factory=list)  # (parsed quiz, value of its check), at the end
    namespace: dict = field(default_factory=dict)  # the page's names once it has run


def evaluate(expression, namespace):
    try:
        return eval(expression, namespace)
    except Exception as error:  # reported by the test that reads it
        return error


@functools.cache
def page_run(path):
    """Runs a page once (some train a network for seconds): see `pagecode.run`."""
    found, quizzes = PageRun(), []
    for item, namespace, ran in pagecode.run(pagecode.parse(path.read_text("utf-8"))):
        if ran is not None:
            found.blocks.append((item, ran))
        elif item.kind == "claim":
            found.claims.append((item, evaluate(item.expr, namespace)))
        elif item.kind == "graph":
            found.graphs.append((item, evaluate(item.body.strip().splitlines()[0], namespace)))
        elif item.kind == "quiz":
            quizzes.append(quiz.parse(item.body))
        found.namespace = namespace
    found.checks = [(q, evaluate(q["check"], found.namespace)) for q in quizzes if "check" in q]
    return found
