"""Grading: run the learner's closures on every check and compare them with the answer key."""

import json

from . import answer_key, explain
from .catalog import load_catalog
from .errors import Slots, describe_exception, describe_syntax_error
from .graph import topological, uses
from .hypotheses import explain as explain_keys
from .hypotheses import hypotheses
from .precision import agrees, shown
from .sandbox import CappedOutput, guarded
from .scaffold import FILENAME, SLOT_LABELS, assemble

_catalog = {}


def catalog():
    """The exercises, read once."""
    if not _catalog:
        _catalog.update(load_catalog())
    return _catalog


def grade_json(exercise_id, bodies_json):
    """`grade` for the browser: JSON in, JSON out."""
    return json.dumps(grade(exercise_id, json.loads(bodies_json)))


def grade(exercise_id, bodies, exercises=None):
    """Grade the learner's `bodies` ({slot: source}) on one exercise; returns plain data."""
    exercises = exercises or catalog()
    exercise = exercises[exercise_id]
    theirs = {slot: bodies.get(slot, exercise.stubs[slot]) for slot in exercise.slots}
    stubs = [slot for slot in exercise.slots if is_stub(theirs[slot], exercise.stubs[slot])]
    used = {slot: exercises[slot].solutions[slot] for slot in SLOT_LABELS} | theirs
    source, starts = assemble(used)
    slots = Slots({slot: starts[slot] for slot in theirs}, theirs)
    output = CappedOutput()
    result = {"exercise": exercise_id, "checks": [], "error": None, "stubs": stubs,
              "mistakes": [], "diagnosis": ""}
    try:
        namespace = {"__name__": "value_class"}
        exec(compile(source, FILENAME, "exec"), namespace)
    except SyntaxError as error:
        result["error"] = describe_syntax_error(error, slots)
    else:
        _run_checks(exercise, namespace["Value"], stubs, output, slots, result)
    result["stdout"], result["stdout_truncated"] = output.text(), output.truncated
    return _conclude(exercise, result)


def _run_checks(exercise, value_class, stubs, output, slots, result):
    # the learner's code runs for every check first; the grader compares only once the
    # interpreter is put back as it was, so nothing the code changed can sway a comparison
    results = []
    try:
        with guarded(output):
            for check in exercise.checks:
                results.append((check, run_check(value_class, check)))
    except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
        result["error"] = describe_exception(error, slots)
    rows = [row for check, got in results for row in compare(check, got)]
    keys = [] if all(row["passed"] for row in rows) else diagnose(results, exercise.slots, stubs)
    for row in rows:
        if not row["passed"] and row["got"] is not None:  # a number, wrong: the diagnosis fits it
            row["mistakes"] = keys
    result["mistakes"], result["diagnosis"] = keys, explain.mistake_sentence(keys)
    result["checks"] = rows


def build(check, make):
    """Build the check's graph from leaves made by `make(value, name)`: `(output, names)`."""
    space = {name: make(value, name) for name, value in check.leaves.items()}
    if check.output == "out":
        space["out"] = eval(check.build, space)
    else:
        exec(check.build, space)
    return space[check.output], space


def run_check(value_class, check):
    """The learner's grads: `backward()` when seeded with 1, else the same walk by hand."""
    output, space = build(check, lambda value, name: value_class(value, label=name))
    if check.grad == 1.0:
        output.backward()
    else:
        output.grad = check.grad
        for node in reversed(topological(output)):
            node._backward()
    return {name: space[name].grad for name in check.names}


def answer(check, mistakes=()):
    """The answer key's grads for the check, and the ops that consume each named node."""
    output, space = build(check, lambda value, name: answer_key.Node(value))
    answer_key.backprop(output, check.grad, mistakes)
    consumers = uses(output)
    return {name: space[name].grad for name in check.names}, {
        name: consumers.get(space[name], []) for name in check.names
    }


def is_number(value):
    return type(value) in (int, float)


def compare(check, got):
    """One row per checked value of the check, against the answer key."""
    expected, consumers = answer(check)
    return [_row(check, name, got[name], expected[name], consumers[name])
            for name in check.names]


def _agree(got, expected):
    return all(is_number(got[name]) and agrees(got[name], expected[name]) for name in got)


def diagnose(results, slots, stubs):
    """The simplest classic mistake that reproduces every number the learner got, if any."""
    for mistakes in hypotheses(slots, stubs):
        if all(_agree(got, answer(check, mistakes)[0]) for check, got in results):
            return explain_keys(mistakes)
    return []


def _row(check, name, got, expected, consumers):
    number = is_number(got)
    passed = number and agrees(got, expected)
    if passed:
        why = f"{name}.grad is {shown(expected)}, as expected."
    elif not number:
        why = explain.not_a_number(name, got)
    else:
        why = explain.expected_sentence(name, expected, consumers)
    return {
        "built": check.build,
        "given": _given(check),
        "value": f"{name}.grad",
        "got": float(got) if number else None,
        "expected": expected,
        "got_text": shown(got) if number else type(got).__name__,
        "expected_text": shown(expected),
        "passed": passed,
        "why": why,
        "mistakes": [] if number else ["not_a_number"],  # a wrong number's come from diagnose
    }


def _given(check):
    given = [f"{name} = {value!r}" for name, value in check.leaves.items()]
    return ", ".join(given + [f"out.grad = {check.grad!r}"] if check.output == "out" else given)


def is_stub(body, stub):
    """True when the learner has not changed the stub, or wrote no code at all."""
    code = [line.strip() for line in body.splitlines()]
    code = [line for line in code if line and not line.startswith("#") and line != "pass"]
    return not code or body.strip() == stub.strip()


def _conclude(exercise, result):
    rows, error = result["checks"], result["error"]
    failed = sum(not row["passed"] for row in rows)
    if error:
        result["verdict"] = "error"
        result["summary"] = error["summary"]
    elif failed:
        result["verdict"] = "fail"
        result["summary"] = f"{failed} of {len(rows)} gradients are wrong."
    else:
        result["verdict"] = "pass"
        result["summary"] = f"All {len(rows)} gradients match to seven decimals."
    if result["stubs"] and not exercise.is_op:
        labels = ", ".join(SLOT_LABELS[slot] for slot in result["stubs"])
        result["summary"] += f" Still the starter stub: {labels}. Write them on their own tabs."
    return result
