"""The learner's code, run on every check of an exercise, and what it did, as plain data (an
observation) for the judge (grader/judge.py).

Nothing here knows the right gradients, and nothing it returns is trusted: in the browser
this runs in an interpreter used for one run and then thrown away, and the judge, which never
runs learner code, checks every field. What it knows of the exercises is `data` (see
grader/runner_data.py; in the browser, `data.json` beside this file). The observation, as JSON:

    {"checks": [                     # in the exercise's order, up to the one that failed
        {"nodes": [{"data": n, "grad": n}],   # topological order (runner/graph.py)
         "steps": [{"node": i, "depth": d, "start": [n], "grads": [[j, n, n]],
                    "data": [[j, n, n]], "writes": [[j, n, n]],
                    "local_grads": [n] or {"type": t}}],
         "complete": bool, "dropped": bool}],
     "error": null or runner/errors.py's description,
     "stdout": "...", "stdout_truncated": bool,
     "stdout_lines": int}  # the lines printed, all of them, where stdout keeps a beginning

Numbers `n` are encoded by runner/numbers.py. A step is one call of a node's `_backward`
(closures) or one node's chaining (local_grads): its node, how deeply it was nested in other
calls, every grad at its start, the grads and data it changed itself (before, after), and
each write to a `.grad` it made itself, in order (a `=` shows as a write that replaced).
"""

import json
from functools import cache
from pathlib import Path

from .assembly import FILENAME, assemble
from .checker import observe_checker
from .checks import build_graph
from .errors import Slots, describe_exception, describe_syntax_error
from .graph import topological
from .sandbox import CappedOutput, guarded
from .trace import Trace, watch_grads

DATA = Path(__file__).with_name("data.json")


@cache
def data():
    """The exercises as the build wrote them beside this file (runner.zip's data.json), read
    once; in CPython, callers pass grader/runner_data.py's instead."""
    # through this module's loader: in the browser it is imported from runner.zip itself
    return json.loads(__loader__.get_data(str(DATA)))


def observe_json(exercise_id, bodies_json):
    """`observe` for the browser's runner: JSON in, JSON out."""
    bodies = json.loads(bodies_json)
    return json.dumps(observe(exercise_id, bodies if isinstance(bodies, dict) else {}))


def bodies_to_run(exercise, design, bodies):
    """The learner's bodies for the exercise's ops (the starter code where one is missing or
    not text), and the reference for every other op of the class."""
    theirs = {op: bodies.get(op) for op in exercise["ops"]}
    theirs = {op: b if isinstance(b, str) else exercise["stubs"][op] for op, b in theirs.items()}
    return design["references"] | theirs, theirs


def their_bodies(design, bodies):
    """`{op: body}` of the learner's `bodies` that are the design's ops' and text: what they
    wrote, where the rest of the class is the reference."""
    return {op: b for op, b in bodies.items() if op in design["labels"] and isinstance(b, str)}


def make_class(design, used, theirs):
    """The design's Value class with `used` ({op: body}) in its slots: `(Value, slots)`, `slots`
    mapping lines back to the learner's own code (`theirs`). Defining the class runs no body;
    a SyntaxError in a body is raised as it is."""
    source, starts = assemble(design["segments"], used, design["expression"])
    slots = Slots({op: starts[op] for op in theirs}, theirs, design["labels"])
    namespace = {"__name__": "value_class"}
    try:
        exec(compile(source, FILENAME, "exec"), namespace)
    except SyntaxError as error:
        error.slots = slots
        raise
    return namespace["Value"], slots


def observe(exercise_id, bodies, known=None):
    """Run the learner's `bodies` ({op: source}) on every check of the exercise; `known` is
    what grader/runner_data.py gives (by default, data.json)."""
    known = data() if known is None else known
    exercise = known["exercises"][exercise_id]
    if exercise.get("kind") == "checker":  # the learner's gradient checker, not a Value class
        return observe_checker(exercise, bodies)
    if exercise.get("kind") == "engine":  # a whole engine of the learner's: runner/engine.py
        from .engine import observe_engine

        return observe_engine(exercise_id, bodies, known)
    return observe_checks(exercise, known["designs"][exercise["design"]], bodies)


def observe_checks(exercise, design, bodies):
    """`observe` of an exercise given as data (`{"ops", "stubs", "checks"}`, as data.json holds
    one) on `design`: the fuzzer's smallest failing graph is one (runner/fuzz.py)."""
    used, theirs = bodies_to_run(exercise, design, bodies)
    output = CappedOutput()
    observation = {"checks": [], "error": None}
    try:
        value_class, slots = make_class(design, used, theirs)
    except SyntaxError as error:
        observation["error"] = describe_syntax_error(error, error.slots)
    else:
        _run_checks(exercise, design, value_class, output, slots, observation)
    observation |= output.report()
    return observation


def _run_checks(exercise, design, value_class, output, slots, observation):
    local_grads = design["children"] == "_children"  # microgpt's design: tuples, not closures
    traces = []  # one per check reached: the last one's may be cut short
    with guarded(output):
        try:
            for check in exercise["checks"]:
                trace = Trace()
                traces.append(trace)
                make = value_maker(design, value_class)
                output_node, _ = build_graph(check["build"], check["leaves"], check["output"], make)
                trace.start(topological(output_node, design["children"]))
                watch_grads(value_class, trace)
                _backward(trace, output_node, check["grad"], local_grads)
                trace.complete = True
        except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
            observation["error"] = describe_exception(error, slots)
        observation["checks"] = [trace.record() for trace in traces]


def value_maker(design, value_class):
    """`make(value, name)`, a leaf of the design's class: micrograd's Value takes a label,
    microgpt's does not."""
    if design["children"] == "_children":
        return lambda value, name: value_class(value)
    return lambda value, name: value_class(value, label=name)


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


def main():
    """`python -m runner.observe`: one run in a process of its own, for grader/cli/isolated.py.
    Reads `{"exercise", "bodies", "data", "out"}` as JSON on stdin and writes the observation
    to the file `out`."""
    import sys

    request = json.loads(sys.stdin.read())
    found = observe(request["exercise"], request["bodies"], request["data"])
    Path(request["out"]).write_text(json.dumps(found), encoding="utf-8")


if __name__ == "__main__":
    main()
