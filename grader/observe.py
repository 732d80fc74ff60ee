"""The runner's half of grading: the learner's code, run on every check of an exercise, and
what it did, as plain data (an observation) for the judge (grader/judge.py).

Nothing here knows the right gradients, and nothing it returns is trusted: in the browser
this runs in an interpreter used for one run and then thrown away, and the judge, which never
runs learner code, checks every field. The observation, as JSON:

    {"checks": [                     # in the exercise's order, up to the one that failed
        {"nodes": [{"data": n, "grad": n}],   # topological order (grader/graph.py)
         "steps": [{"node": i, "depth": d, "start": [n], "grads": [[j, n, n]],
                    "data": [[j, n, n]], "local_grads": [n] or {"type": t}}],
         "complete": bool, "dropped": bool}],
     "error": null or grader/errors.py's description plus "check",
     "stdout": "...", "stdout_truncated": bool}

Numbers `n` are encoded by grader/precision.py. A step is one call of a node's `_backward`
(closures) or one node's chaining (local_grads): its node, how deeply it was nested in other
calls, every grad at its start, and the grads and data it changed itself (before, after).
"""

import json

from .errors import Slots, describe_exception, describe_syntax_error
from .exercises import load_catalog
from .graph import topological
from .ops import LOCAL_GRADS, ops_of
from .precision import encode
from .sandbox import CappedOutput, guarded
from .scaffold import DESIGNS, FILENAME, assemble

MAX_STEPS = 200  # per check: a tiny graph needs a few dozen at most
_catalog = {}


def catalog():
    """The exercises, read once."""
    if not _catalog:
        _catalog.update(load_catalog())
    return _catalog


def observe_json(exercise_id, bodies_json):
    """`observe` for the browser's runner: JSON in, JSON out."""
    bodies = json.loads(bodies_json)
    return json.dumps(observe(exercise_id, bodies if isinstance(bodies, dict) else {}))


def bodies_to_run(exercise, bodies, exercises):
    """The learner's bodies for the exercise's ops (the stub where one is missing or not
    text), and the reference for every other op of the class."""
    design = exercise.design
    used = {op.name: "" for op in ops_of(design)}
    for other in exercises.values():
        if other.design == design and other.kind == "op":
            used |= other.solutions
    theirs = {op: bodies.get(op) for op in exercise.ops}
    theirs = {
        op: body if isinstance(body, str) else exercise.stubs[op] for op, body in theirs.items()
    }
    return used | theirs, theirs


def observe(exercise_id, bodies, exercises=None):
    """Run the learner's `bodies` ({op: source}) on every check of the exercise."""
    exercises = exercises or catalog()
    exercise = exercises[exercise_id]
    used, theirs = bodies_to_run(exercise, bodies, exercises)
    source, starts = assemble(exercise.design, used)
    slots = Slots({op: starts[op] for op in theirs}, theirs, exercise.design)
    output = CappedOutput()
    observation = {"checks": [], "error": None}
    try:
        namespace = {"__name__": "value_class"}
        exec(compile(source, FILENAME, "exec"), namespace)  # defines the class, runs no body
    except SyntaxError as error:
        observation["error"] = describe_syntax_error(error, slots)
    else:
        _run_checks(exercise, namespace["Value"], output, slots, observation)
    observation["stdout"], observation["stdout_truncated"] = output.text(), output.truncated
    return observation


def _run_checks(exercise, value_class, output, slots, observation):
    local_grads = exercise.design == LOCAL_GRADS
    trace = None
    with guarded(output):
        try:
            for check in exercise.checks:
                trace = Trace()
                observation["checks"].append(trace.record)
                if local_grads:
                    output_node, _ = check.graph(lambda value, name: value_class(value))
                else:
                    output_node, _ = check.graph(lambda value, name: value_class(value, label=name))
                trace.start(topological(output_node, DESIGNS[exercise.design].children))
                _backward(trace, output_node, check.grad, local_grads)
                trace.finish(complete=True)
        except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
            index = len(observation["checks"]) - 1
            observation["error"] = describe_exception(error, slots) | {"check": max(index, 0)}
            if trace is not None:
                trace.finish(complete=False)


def _backward(trace, output, seed, local_grads):
    """The backward pass, every step traced: the class's own `backward()` when the seed is
    1.0 (closures), else the same walk by hand, from `seed`."""
    if local_grads:
        output.grad = seed
        for node in reversed(trace.nodes):
            trace.chain(node)
        return
    for index, node in enumerate(trace.nodes):
        node._backward = trace.traced(index, node._backward)
    if seed == 1.0:
        output.backward()
    else:
        output.grad = seed
        for node in reversed(trace.nodes):
            node._backward()


def _read(node, name):
    try:
        return encode(getattr(node, name))
    except BaseException:  # noqa: BLE001 - a property of the learner's making may raise
        return {"type": "unreadable"}


class Trace:
    """What the learner's code did to one check's graph, step by step."""

    def __init__(self):
        self.nodes = []
        self.open = []  # the steps under way, innermost last (a closure may call another)
        self.record = {"nodes": [], "steps": [], "complete": False, "dropped": False}

    def start(self, nodes):
        self.nodes = nodes
        self.index = {id(node): i for i, node in enumerate(nodes)}
        self.record["nodes"] = [{"data": _read(node, "data")} for node in nodes]

    def state(self):
        return [(_read(node, "grad"), _read(node, "data")) for node in self.nodes]

    def traced(self, index, closure):
        """`closure` (node `index`'s `_backward`), its calls recorded as steps."""

        def _backward():
            self.begin(index)
            try:
                return closure()
            finally:
                self.end()

        return _backward

    def chain(self, node):
        """One node's step of microgpt's backward(): each child gets local_grad * node.grad."""
        step = self.begin(self.index[id(node)])
        local = getattr(node, "_local_grads", ())
        if step is not None:
            step["local_grads"] = (
                [encode(item) for item in local[:8]]
                if isinstance(local, (tuple, list))
                else encode(local)
            )
        try:
            if isinstance(local, (tuple, list)):
                for child, local_grad in zip(node._children, local, strict=False):
                    child.grad += local_grad * node.grad
        finally:
            self.end()

    def begin(self, index):
        now = self.state()
        if self.open:
            self._absorb(self.open[-1], now)
        if len(self.record["steps"]) >= MAX_STEPS:
            self.record["dropped"] = True
            self.open.append(None)
            return None
        step = {
            "node": index,
            "depth": len(self.open),
            "start": [g for g, _ in now],
            "grads": {},
            "data": {},
            "mark": now,
        }
        self.record["steps"].append(step)
        self.open.append(step)
        return step

    def end(self):
        now = self.state()
        step = self.open.pop()
        if step is not None:
            self._absorb(step, now)
        if self.open and self.open[-1] is not None:
            self.open[-1]["mark"] = now  # the outer call's own changes resume from here

    @staticmethod
    def _absorb(step, now):
        """Adds the changes since `step`'s mark to its own changes."""
        if step is None:
            return
        for j, (before, after) in enumerate(zip(step["mark"], now, strict=True)):
            for k, kind in enumerate(("grads", "data")):
                if before[k] != after[k]:
                    first = step[kind].get(j, (before[k],))[0]
                    step[kind][j] = (first, after[k])
        step["mark"] = now

    def finish(self, complete):
        self.record["nodes"] = [
            dict(node, grad=_read(self.nodes[i], "grad"))
            for i, node in enumerate(self.record["nodes"])
        ]
        for step in self.record["steps"]:
            step.pop("mark", None)
            for kind in ("grads", "data"):
                step[kind] = [[j, b, a] for j, (b, a) in step[kind].items() if b != a]
        self.record["complete"] = complete


def main():
    """`python -m grader.observe`: one run in a process of its own, for grader/isolated.py.
    Reads `{"exercise", "bodies", "root", "out"}` as JSON on stdin and writes the observation
    to the file `out`."""
    import sys
    from pathlib import Path

    request = json.loads(sys.stdin.read())
    exercises = load_catalog(request["root"]) if request.get("root") else None
    found = observe(request["exercise"], request["bodies"], exercises)
    Path(request["out"]).write_text(json.dumps(found), encoding="utf-8")


if __name__ == "__main__":
    main()
