"""The judge's half of "Check my whole engine" (issue 42): each random graph the learner's class
ran (runner/fuzz.py) held against the answer key, and the first that fails shrunk to a smallest
one that still fails, by running smaller candidates: a node removed, a subgraph replaced by a
leaf holding its value, a constant made plainer.

Running is the caller's: `run(graphs)` gives runner/fuzz.py's `run_graphs` for them, in this
process for trusted code (tests) or in a child process (grader/cli/fuzz.py), and raises
Unrunnable when the run gave no report (its time limit passed). Its reports are untrusted
data: anything no run could have sent counts as a failure.
"""

from dataclasses import dataclass
from itertools import islice

from runner.fuzz import LARGEST_DATA, LARGEST_GRAD, build, moderate, random_graphs
from runner.numbers import decode
from runner.precision import agrees
from runner.shrink import MOST_ROUNDS, smaller

from .answer_key import Node, answer

BATCH = 100  # graphs a run, by default: a failure early in the search ends it early


class Unrunnable(RuntimeError):
    """A run that gave no report: the message says why."""


@dataclass(frozen=True)
class Failure:
    """A graph the learner's class gets wrong: a leaf's grad (`got` a float, or the name of
    what it was instead of a number) against the key's, or the error it raised."""

    graph: dict
    leaf: str = ""
    got: object = None
    expected: float = 0.0
    error: str = ""  # runner/errors.py's summary, when the class raised


@dataclass(frozen=True)
class Finding:
    """What a search found: `first` the failing graph as drawn and `number` its place
    (1-based) among the graphs drawn, `smallest` what shrinking made of it; `broken` the
    error of a class that does not compile (then no graph ran); `unrunnable`, which run of
    graphs gave no report and why (Unrunnable's words); all empty when none failed."""

    searched: int
    first: Failure | None = None
    number: int = 0
    smallest: Failure | None = None
    broken: str = ""
    unrunnable: str = ""

    @property
    def failed(self):
        return bool(self.first or self.broken or self.unrunnable)


class _Built:
    """A graph as the answer key reads a check (grader/answer_key.py `answer`)."""

    def __init__(self, graph, labels):
        self.grad = graph["grad"]
        self._graph, self._labels = graph, labels

    def graph(self, make):
        return build(self._graph, self._labels, make)


def key(graph, labels):
    """The answer key's grads of the graph's leaves, `{leaf: grad}`, and its nodes."""
    nodes, space = answer(_Built(graph, labels))
    return {name: space[name].grad for name, _ in graph["leaves"]}, nodes


def judged(graph, report, labels):
    """The Failure `report` (one graph's, from the runner) shows, or None when every leaf's grad
    agrees with the key to seven decimals."""
    if not isinstance(report, dict):
        return Failure(graph, error="its report was unreadable")
    if "error" in report:
        summary = report["error"].get("summary") if isinstance(report["error"], dict) else None
        return Failure(graph, error=summary if isinstance(summary, str) else "an error")
    grads = report.get("grads")
    if not isinstance(grads, dict):
        return Failure(graph, error="its report was unreadable")
    expected, _ = key(graph, labels)
    for leaf, right in expected.items():
        try:
            got = decode(grads[leaf])
        except (KeyError, ValueError):
            return Failure(graph, error="its report was unreadable")
        if not (isinstance(got, float) and agrees(got, right)):
            return Failure(graph, leaf, got, right)
    return None


def first_failure(graphs, ran, labels):
    """`(index, Failure)` of the first graph that fails in `ran` (what `run` gave for
    `graphs`, untrusted), else None."""
    reports = ran.get("reports") if isinstance(ran, dict) else None
    if not isinstance(reports, list) or len(reports) != len(graphs):
        return 0, Failure(graphs[0], error="its report was unreadable")
    for index, (graph, report) in enumerate(zip(graphs, reports, strict=True)):
        failure = judged(graph, report, labels)
        if failure:
            return index, failure
    return None


def broken(ran):
    """The error of a class that does not compile, from what `run` gave (`ran`), else ""."""
    found = ran.get("broken") if isinstance(ran, dict) else None
    if not found:
        return ""
    summary = found.get("summary") if isinstance(found, dict) else None
    return summary if isinstance(summary, str) else "the class does not compile"


def search(design, ops, run, count, seed, batch=BATCH):
    """The Finding of `count` random graphs over `ops` (seeded by `seed`), run by `run`,
    `batch` graphs at a time."""
    return drive(searching(design, ops, count, seed, batch), run)


def shrink(failure, run, labels):
    """A smallest Failure that `failure`'s graph shrinks to: each round runs every smaller
    candidate at once and keeps the first that still fails."""
    return drive(shrinking(failure, labels), run)


@dataclass(frozen=True)
class Batch:
    """Graphs to run, as `searching` asks: `first` the place (1-based) of the first among the
    `of` graphs drawn, or 0 for shrinking's candidates."""

    graphs: list
    first: int = 0
    of: int = 0


def drive(steps, run):
    """What the generator `steps` (`searching`, `shrinking`) returns, each Batch it yields run
    by `run`; a run that raises Unrunnable is thrown into it. The page drives the same
    generators a message at a time (grader/fuzz_page.py)."""
    try:
        asked = next(steps)
        while True:
            try:
                ran = run(asked.graphs)
            except Unrunnable as error:
                asked = steps.throw(error)
            else:
                asked = steps.send(ran)
    except StopIteration as done:
        return done.value


def searching(design, ops, count, seed, batch=BATCH):
    """`search` as a generator: yields each Batch to run, is sent what the run gave (or thrown
    Unrunnable), and returns the Finding."""
    labels = design["labels"]
    drawn = random_graphs(design, ops, seed)
    done = 0
    while done < count:
        graphs = list(islice(drawn, min(batch, count - done)))
        try:
            ran = yield Batch(graphs, done + 1, count)
        except Unrunnable as error:
            return Finding(done, unrunnable=f"graphs {done + 1} to {done + len(graphs)}: {error}")
        if broken(ran):
            return Finding(done, broken=broken(ran))
        failing = first_failure(graphs, ran, labels)
        if failing:
            index, failure = failing
            smallest = yield from shrinking(failure, labels)
            return Finding(done + index + 1, failure, done + index + 1, smallest)
        done += len(graphs)
    return Finding(done)


def shrinking(failure, labels):
    """`shrink` as a generator, as `searching` is one."""
    for _ in range(MOST_ROUNDS):
        candidates = [c for c in smaller(failure.graph, labels, _node) if usable(c, labels)]
        if not candidates:
            return failure
        try:
            ran = yield Batch(candidates)
        except Unrunnable:
            return failure  # a candidate ran too long: the graph as it is still fails
        failing = None if broken(ran) else first_failure(candidates, ran, labels)
        if not failing or failing[1].error == "its report was unreadable":
            return failure
        failure = failing[1]
    return failure


def _node(value, _name):
    return Node(value)


def usable(graph, labels):
    """Whether the answer key computes `graph` to finite numbers of moderate size, as every
    graph the runner draws (runner/fuzz.py)."""
    try:
        _, nodes = key(graph, labels)
    except Exception:  # noqa: BLE001 - the domain of an op: log(-1), an overflow
        return False
    return all(
        moderate(node.data, LARGEST_DATA) and moderate(node.grad, LARGEST_GRAD) for node in nodes
    )
