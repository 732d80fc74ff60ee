"""The judge's half of the page's "Check my whole engine" (widget/src/exercise/engine-check.js):
grader/fuzz.py's search and shrinking, a message at a time. The judge worker never runs learner
code: each answer asks the page's runner to run graphs (runner/fuzz.py `ask_json`), and what
the runner sent back, untrusted, is the next message's. Once a graph fails and is shrunk, the
runner observes the smallest one as a check of its own, and the judge presents that as any
check's result (grader/judge.py): the graph view and its step-through, on the learner's rung.

`begin` starts a session: a `Search`, which its caller (the judge worker,
widget/src/worker/main.js) holds and hands what the runner sent back. A session's answer, as
JSON: `{"ask": {...}, "progress": {...}}` (send `ask` to the runner), or `{"found": {...}}` (what
the search found: `verdict` "pass", "fail", "error" or "nothing", `summary`, and for a failing
graph `program`, `did` (what the engine did on it) and `result`, the judged check).
"""

import json
from dataclasses import replace
from functools import cache

from runner.assembly import is_stub
from runner.fuzz import as_exercise

from .exercises import Check, catalog
from .fuzz import Batch, Unrunnable, searching
from .fuzz_words import engine_did, ops_count, program, quiet
from .judge import judge
from .kinds.op import op_tabs
from .kinds.registry import KINDS
from .runner_data import runner_data

BATCH = 25  # graphs a run: the progress line moves every 25


def written(exercises, design, bodies):
    """`{op: code}` of the ops of `design` whose `bodies` hold more than the starter code."""
    found = {}
    for exercise in op_tabs(exercises, design):
        op = exercise.ops[0]
        code = bodies.get(op)
        if isinstance(code, str) and not is_stub(code, exercise.stubs[op]):
            found[op] = code
    return found


def begin(design_name, bodies_json, count, seed, told_json="[]"):
    """Starts a session of `count` graphs (seeded by `seed`) on the learner's `bodies` ({op:
    code}, JSON) of `design_name`: a `Search`, its first answer in `first_json`."""
    bodies = json.loads(bodies_json)
    told = json.loads(told_json)
    steps = _session(design_name, bodies if isinstance(bodies, dict) else {}, count, seed, told)
    return Search(steps)


class Search:
    """A session as its caller holds it: the generator that searches (`_session`), a message
    at a time; `done` once it has answered what it found (every later answer is `{"found":
    null}`)."""

    def __init__(self, steps):
        self._steps = steps
        self.done = False
        self.first_json = self._answer(lambda: next(steps))

    def next_json(self, ran_json, unrunnable=""):
        """The next answer, given what the runner sent for the last (`ran_json`), or `unrunnable`,
        why it sent nothing (its time limit passed)."""
        if self.done:
            return json.dumps({"found": None})
        if unrunnable:
            return self._answer(lambda: self._steps.throw(Unrunnable(unrunnable)))
        try:
            ran = json.loads(ran_json)
        except (TypeError, ValueError, RecursionError):
            ran = None  # judged as a report no run could have sent
        return self._answer(lambda: self._steps.send(ran))

    def _answer(self, ask):
        """What `ask()` (the generator's next step) yields or returns, as the page's answer."""
        try:
            asked = ask()
        except StopIteration as end:
            self.done = True
            return json.dumps({"found": end.value}, allow_nan=False)
        if isinstance(asked, Batch):  # grader/fuzz.py's: graphs to run
            asked = _asking(asked)
        return json.dumps(asked, allow_nan=False)


def _asking(batch):
    """The answer that asks the runner to run a Batch, and says how far the search is."""
    first, last = batch.first, batch.first + len(batch.graphs) - 1
    progress = {"graph": first, "last": last, "of": batch.of} if first else {"shrinking": True}
    return {"ask": {"graphs": batch.graphs}, "progress": progress}


def _session(design_name, bodies, count, seed, told):
    """The session as a generator: yields each Batch of graphs to run (grader/fuzz.py's) or the
    answer that asks to observe one, and returns what was found."""
    exercises = catalog()
    design = _runner_data()["designs"][design_name]
    theirs = written(exercises, design_name, bodies)
    labels = design["labels"]
    if not theirs:
        return {"verdict": "nothing", "summary": NOTHING}
    finding = yield from searching(design, list(theirs), count, seed, BATCH)
    names = ", ".join(f"`{labels[op]}`" for op in theirs)
    if not finding.failed:
        return {"verdict": "pass", "summary": PASSED.format(count=count, ops=names)}
    if finding.broken or finding.unrunnable:
        summary = (
            BROKEN + quiet(finding.broken) if finding.broken else f"A run of {finding.unrunnable}."
        )
        return {"verdict": "error", "summary": summary}
    smallest = finding.smallest
    found = {
        "verdict": "fail",
        "summary": FAILED.format(number=finding.number, count=count, ops=ops_count(smallest.graph)),
        "program": "\n".join(program(smallest.graph, labels, output=None)),
        "did": engine_did(smallest),
        "result": None,
    }
    try:
        observation = yield {"ask": {"observe": smallest.graph}, "progress": {"shrunk": True}}
    except Unrunnable:
        return found
    found["result"] = judged(design_name, theirs, smallest.graph, observation, told)
    return found


NOTHING = "Nothing to check yet: every op still holds its starter code."
PASSED = (
    "No failing graph in {count}: on every graph of your {ops}, mixed with `__add__` and "
    "`__mul__` (the course's, where you have not written them), each leaf's grad agreed with "
    "the answer key to seven decimals."
)
FAILED = "Graph {number} of {count} fails. The smallest graph that still fails has {ops}:"
BROKEN = "Your code does not compile, so no graph ran: "


def judged(design_name, theirs, graph, observation, told):
    """The judged result (grader/judge.py's dict) of the runner's observation of `graph`, a
    check of its own on the design's graph tab, every leaf's grad checked."""
    exercises = catalog()
    tab = next(
        e for e in exercises.values() if e.design == design_name and KINDS[e.kind].needs_op_tabs
    )
    labels = _runner_data()["designs"][design_name]["labels"]
    check = as_exercise({"labels": labels}, theirs, graph)["checks"][0]
    names = tuple(leaf for leaf, _ in graph["leaves"])
    stubs = {op: tab.stubs.get(op, "") for op in theirs}
    shown = replace(
        tab, ops=tuple(theirs), checks=(Check(**check, names=names),), known_wrong=(), stubs=stubs
    )
    result = judge(tab.id, theirs, observation, {tab.id: shown}, told)
    return result.to_dict()


@cache
def _runner_data():
    """The course's designs as the runner reads them (references and all), made once."""
    return runner_data(catalog())
