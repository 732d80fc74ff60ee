"""The judge's first step: the runner's report (runner/observe.py), untrusted, decoded once into
the typed records below and lined up with the answer key's graph.

Every field is checked and every number decoded (runner/numbers.py); anything else makes the
report `Unreadable`, never a pass.
"""

import json
from dataclasses import dataclass

from runner.numbers import decode
from runner.sandbox import OUTPUT_LIMIT
from runner.trace import MAX_STEPS, MAX_WRITES

from .answer_key import answer, node_names
from .result import Error

MAX_TEXT = 2000
MAX_LOCAL_GRADS = 8


class Unreadable(ValueError):
    """An observation that no run of the runner could have sent."""


@dataclass(frozen=True, slots=True)
class Write:
    """One node's grad (or data) before and after a step changed it."""

    node: int
    before: object  # a float, or the name of what it was (runner/numbers.py)
    after: object


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One closure call (or, in the local-gradients design, one node's chaining)."""

    node: int
    depth: int  # 0 when backward() ran it, 1 when another closure did
    start: list  # every node's grad as the step began
    grads: list  # Write per grad the step changed, as it ended
    data: list  # Write per data it changed
    writes: list  # Write per assignment to a grad, in order
    local_grads: object = None  # the tuple's numbers, or the name of what was given instead


@dataclass(frozen=True, slots=True)
class SeenCheck:
    """One check as the learner's run left it, lined up with the answer key's graph."""

    check: object  # the exercise's Check
    nodes: list  # the answer key's nodes, topological order, each with its `index`
    names: list  # a name for each node
    got: list  # each node's grad as the learner's code left it
    steps: list  # StepRecord
    complete: bool  # False when the learner's code raised during this check
    dropped: bool  # steps beyond what the runner records were dropped


@dataclass(frozen=True, slots=True)
class Observation:
    checks: list  # SeenCheck, one per check the run reached
    error: Error | None  # where and why the learner's code raised
    stdout: str
    stdout_truncated: bool
    stdout_lines: int  # how many lines the code printed (stdout keeps the first OUTPUT_LIMIT)


def parse(observation_json):
    """The report as Python data, or None when it is not JSON at all."""
    try:
        return json.loads(observation_json)
    except (ValueError, RecursionError):
        return None


def decode_observation(observation, exercise):
    """The Observation of a run of `exercise`, from the report as parsed JSON; raises
    Unreadable for anything no run could have sent."""
    try:
        checks = observation["checks"]
        if not isinstance(checks, list) or len(checks) > len(exercise.checks):
            raise Unreadable("checks")
        seen = [_check(r, check) for r, check in zip(checks, exercise.checks, strict=False)]
        error = decode_error(observation.get("error"), exercise)
        printed = decode_output(observation)
    except Unreadable:
        raise
    except (AttributeError, TypeError, ValueError, KeyError) as problem:
        raise Unreadable(str(problem)) from problem
    every = len(seen) == len(exercise.checks) and all(item.complete for item in seen)
    if error is None and not every:
        raise Unreadable("the run reported fewer checks than the exercise has")
    return Observation(seen, error, **printed)


def decode_output(observation):
    """`{stdout, stdout_truncated, stdout_lines}` of a report (runner/sandbox.py `report`);
    raises Unreadable unless they are text, a bool and a count."""
    stdout, truncated = observation.get("stdout", ""), observation.get("stdout_truncated")
    lines = observation.get("stdout_lines")
    if not isinstance(stdout, str) or not isinstance(truncated, bool):
        raise Unreadable("stdout")
    if type(lines) is not int or lines < 0:
        raise Unreadable("stdout_lines")
    return {"stdout": stdout[:OUTPUT_LIMIT], "stdout_truncated": truncated, "stdout_lines": lines}


def _check(record, check):
    nodes, space = answer(check)
    complete, observed, steps = record["complete"], record["nodes"], record["steps"]
    if not isinstance(complete, bool) or not isinstance(observed, list):
        raise Unreadable("check")
    if observed and len(observed) != len(nodes) or complete and not observed:
        raise Unreadable("nodes")
    got = [decode(item["grad"]) for item in observed] if observed else [0.0] * len(nodes)
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise Unreadable("steps")
    return SeenCheck(
        check=check,
        nodes=nodes,
        names=node_names(nodes, space),
        got=got,
        steps=[_step(step, len(nodes)) for step in steps],
        complete=complete,
        dropped=record.get("dropped", False) is True,
    )


def _step(step, count):
    depth, start = step["depth"], step["start"]
    if not isinstance(depth, int) or not 0 <= depth <= 1000 or len(start) != count:
        raise Unreadable("step")
    changes = {
        kind: _writes(step.get(kind, []), most, count)
        for kind, most in (("grads", count), ("data", count), ("writes", MAX_WRITES))
    }
    local = step.get("local_grads")
    if isinstance(local, list):
        local = [decode(item) for item in local[:MAX_LOCAL_GRADS]]
    elif local is not None:
        local = decode(local)
    return StepRecord(
        _integer(step["node"], count),
        depth,
        [decode(item) for item in start],
        **changes,
        local_grads=local,
    )


def _writes(changes, most, count):
    if not isinstance(changes, list) or len(changes) > most:
        raise Unreadable("changes")
    return [Write(_integer(j, count), decode(b), decode(a)) for j, b, a in changes]


def _integer(value, below):
    if type(value) is not int or not 0 <= value < below:
        raise Unreadable("index")
    return value


def decode_error(error, exercise):
    if error is None:
        return None
    if not isinstance(error, dict):
        raise Unreadable("error")
    line, slot = error.get("line"), error.get("slot")
    return Error(
        **{key: _text(error.get(key)) for key in ("type", "message", "label", "source_line")},
        **{key: _text(error.get(key)) for key in ("summary", "text")},
        slot=slot if slot in exercise.ops else None,
        line=line if type(line) is int and 0 < line < 100_000 else None,
        name=_name(error.get("name")),
        builtin=_name(error.get("builtin")),
    )


def _text(value):
    return value[:MAX_TEXT] if isinstance(value, str) else ""


def _name(value):
    return value[:MAX_TEXT] if isinstance(value, str) else None
