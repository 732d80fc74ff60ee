"""The runner's library: the exercises' data as the build wrote it, the door for the learner's
code, their Value class built with it, and a run of its checks, traced (runner/observe.py
describes the observation). The entry points (runner/observe.py, nudge.py, fuzz.py, engine.py,
and the trainers' workers) import it; it imports none of them."""

import json
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from .assembly import FILENAME, assemble
from .assembly import bodies as door
from .checks import build_graph
from .errors import Slots, describe_exception, describe_syntax_error
from .graph import topological
from .sandbox import CappedOutput, guarded
from .trace import Trace, watch_grads

DATA = Path(__file__).with_name("data.json")


HANDED = []  # the data a caller hands for a while (handed), where there is no data.json


def data():
    """The exercises as the build wrote them beside this file (runner.zip's data.json), read
    once; in CPython, callers pass grader/runner_data.py's instead, or hand it (`handed`)."""
    return HANDED[-1] if HANDED else _packaged()


@cache
def _packaged():
    # through this module's loader: in the browser it is imported from runner.zip itself
    return json.loads(__loader__.get_data(str(DATA)))


@contextmanager
def handed(known):
    """`data()` gives `known` (grader/runner_data.py's) inside this block: CPython's checkout
    has no data.json beside runner/, and the build runs lesson code that reads it. None hands
    nothing (the browser's runner reads data.json)."""
    if known is None:
        yield
        return
    HANDED.append(known)
    try:
        yield
    finally:
        HANDED.pop()


def design_class(design_name):
    """The course's Value class of a design (`closures`, `local_grads`), every op the
    reference's: what a lesson page builds its Values with, in the browser and in the build."""
    design = data()["designs"][design_name]
    return make_class(design, design["references"], {})[0]


def bodies_to_run(exercise, design, bodies):
    """The learner's bodies for the exercise's ops (the starter code where one is missing or
    not text), and the reference for every other op of the class."""
    theirs = door(bodies, exercise["stubs"])
    return design["references"] | theirs, theirs


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
