"""The judge's half of grading: an observation of the learner's run (runner/observe.py), held
against the answer key, becomes the verdict the learner reads.

The judge never runs learner code. Everything in an observation is treated as untrusted
data: each field is checked, numbers are decoded (grader/precision.py), and anything else
makes the run unreadable, never a pass.
"""

import json
from dataclasses import dataclass

from runner.assembly import is_stub
from runner.numbers import decode
from runner.observe import MAX_STEPS, MAX_WRITES
from runner.sandbox import OUTPUT_LIMIT

from . import explain
from .answer_key import answer, node_names
from .diagnose import diagnose, error_keys
from .exercises import catalog
from .precision import agrees, shown
from .result import Change, Check, Culprit, GraphNode, Result, Row, Step
from .scaffold import scope

MAX_TEXT = 2000
ERROR_TEXT = ("type", "message", "label", "source_line", "summary", "text")


class Unreadable(ValueError):
    """An observation that no run of the runner could have sent."""


@dataclass
class Seen:
    """One check as the learner's run left it, lined up with the answer key's graph."""

    check: object  # the exercise's Check
    nodes: list  # the answer key's nodes, topological order, each with its `index`
    names: list  # a name for each node
    got: list  # each node's grad as the learner's code left it (decoded)
    steps: list  # decoded steps
    complete: bool
    dropped: bool


def judge_json(exercise_id, bodies_json, observation_json):
    """`judge` for the browser: JSON in, JSON out (no NaN: JSON has none)."""
    bodies = json.loads(bodies_json)
    try:
        observation = json.loads(observation_json)
    except (ValueError, RecursionError):
        observation = None
    result = judge(exercise_id, bodies if isinstance(bodies, dict) else {}, observation)
    return json.dumps(result.to_dict(), allow_nan=False)


def judge(exercise_id, bodies, observation, exercises=None):
    """The Result of the learner's `bodies` on an exercise, given what their run did."""
    exercises = exercises or catalog()
    exercise = exercises[exercise_id]
    theirs = {op: bodies.get(op) for op in exercise.ops}
    theirs = {op: b if isinstance(b, str) else exercise.stubs[op] for op, b in theirs.items()}
    result = Result(exercise_id)
    result.stubs = [op for op in exercise.ops if is_stub(theirs[op], exercise.stubs[op])]
    try:
        seen = _seen(observation, exercise)
        error = _error(observation.get("error"), exercise)
        stdout = observation.get("stdout", "")
        if not isinstance(stdout, str) or not isinstance(observation.get("stdout_truncated"), bool):
            raise Unreadable("stdout")
        every = len(seen) == len(exercise.checks) and all(item.complete for item in seen)
        if error is None and not every:
            raise Unreadable("the run reported fewer checks than the exercise has")
    except (Unreadable, AttributeError, TypeError, ValueError, KeyError) as problem:
        return _unreadable(result, exercise, problem)
    result.stdout, result.stdout_truncated = stdout[:OUTPUT_LIMIT], observation["stdout_truncated"]
    result.error = error
    result.checks = [_check(item) for item in seen]
    wrong = any(not row.passed for row in result.rows)
    if wrong or error:
        _diagnose(result, seen, exercise, theirs, error)
    return _conclude(exercise, result)


def _seen(observation, exercise):
    checks = observation["checks"]
    if not isinstance(checks, list) or len(checks) > len(exercise.checks):
        raise Unreadable("checks")
    return [
        _seen_check(record, check) for record, check in zip(checks, exercise.checks, strict=False)
    ]


def _seen_check(record, check):
    nodes, space = answer(check)
    complete = record["complete"]
    observed = record["nodes"]
    if not isinstance(complete, bool) or not isinstance(observed, list):
        raise Unreadable("check")
    if observed and len(observed) != len(nodes) or complete and not observed:
        raise Unreadable("nodes")
    got = [decode(item["grad"]) for item in observed] if observed else [0.0] * len(nodes)
    steps = record["steps"]
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise Unreadable("steps")
    dropped = record.get("dropped", False)
    return Seen(
        check,
        nodes,
        node_names(nodes, space),
        got,
        [_step(s, len(nodes)) for s in steps],
        complete,
        dropped is True,
    )


def _step(step, count):
    index = _integer(step["node"], count)
    depth = step["depth"]
    start = step["start"]
    if not isinstance(depth, int) or not 0 <= depth <= 1000 or len(start) != count:
        raise Unreadable("step")
    decoded = {"node": index, "depth": depth, "start": [decode(item) for item in start]}
    for kind, most in (("grads", count), ("data", count), ("writes", MAX_WRITES)):
        changes = step.get(kind, [])
        if not isinstance(changes, list) or len(changes) > most:
            raise Unreadable("changes")
        decoded[kind] = [(_integer(j, count), decode(b), decode(a)) for j, b, a in changes]
    if "local_grads" in step:
        local = step["local_grads"]
        decoded["local_grads"] = (
            [decode(item) for item in local[:8]] if isinstance(local, list) else decode(local)
        )
    return decoded


def _integer(value, below):
    if type(value) is not int or not 0 <= value < below:
        raise Unreadable("index")
    return value


def _error(error, exercise):
    if error is None:
        return None
    if not isinstance(error, dict):
        raise Unreadable("error")
    clean = {key: _text(error.get(key)) for key in ERROR_TEXT}
    slot = error.get("slot")
    clean["slot"] = slot if slot in exercise.ops else None
    line = error.get("line")
    clean["line"] = line if type(line) is int and 0 < line < 100_000 else None
    for key in ("name", "builtin"):
        clean[key] = error.get(key) if isinstance(error.get(key), str) else None
    return clean


def _text(value):
    return value[:MAX_TEXT] if isinstance(value, str) else ""


def _unreadable(result, exercise, problem):
    result.verdict = "error"
    result.summary = (
        "The run sent back something the grader cannot read, so it cannot count. Run the "
        "test again; if this keeps happening, reload the page."
    )
    result.error = {
        "type": "Unreadable",
        "message": str(problem)[:200],
        "slot": None,
        "label": None,
        "line": None,
        "source_line": "",
        "summary": result.summary,
        "text": result.summary,
        "name": None,
        "builtin": None,
    }
    return result


def _given(check):
    given = [f"{name} = {value!r}" for name, value in check.leaves.items()]
    return ", ".join(given + [f"out.grad = {check.grad!r}"] if check.output == "out" else given)


def _uses(nodes):
    found = {node.index: [] for node in nodes}
    for node in nodes:
        for operand in node.operands:
            found[operand.index].append(node.op.name)
    return found


def _check(seen):
    checked = {seen.names.index(name) for name in seen.check.names} if seen.complete else set()
    uses = _uses(seen.nodes)
    rows = [
        _row(seen, j, uses[j])
        for j in sorted(checked, key=lambda j: seen.check.names.index(seen.names[j]))
    ]
    nodes = [_graph_node(seen, node, node.index in checked, rows) for node in seen.nodes]
    steps = [_display_step(seen, step) for step in seen.steps if _shown(seen, step)]
    first = seen.steps[0]["start"] if seen.steps else seen.got
    return Check(
        seen.check.build,
        _given(seen.check),
        all(row.passed for row in rows),
        seen.complete,
        rows,
        nodes,
        steps,
        [_number_text(value) for value in first],
        seen.dropped,
    )


def _row(seen, j, uses):
    name, got, expected = seen.names[j], seen.got[j], seen.nodes[j].grad
    if isinstance(got, str):  # not a number at all: the name of what it was
        return Row(
            f"{name}.grad",
            j,
            None,
            expected,
            got,
            shown(expected),
            False,
            explain.not_a_number_sentence(name, got),
            ["not_a_number"],
        )
    if not agrees(got, got):  # nan or infinite
        return Row(
            f"{name}.grad",
            j,
            None,
            expected,
            shown(got),
            shown(expected),
            False,
            explain.not_a_number_sentence(name, shown(got)),
            ["not_finite"],
        )
    passed = agrees(got, expected)
    why = (
        f"{name}.grad is {shown(expected)}, as expected."
        if passed
        else explain.expected_sentence(name, expected, uses)
    )
    return Row(f"{name}.grad", j, got, expected, shown(got), shown(expected), passed, why)


def _graph_node(seen, node, checked, rows):
    got = seen.got[node.index]
    state = "unchecked"
    if checked:
        row = next(row for row in rows if row.node == node.index)
        state = "right" if row.passed else "wrong"
    op = "" if node.op is None else (f"**{node.exponent!r}" if node.op.power else node.op.symbol)
    return GraphNode(
        node.index,
        seen.names[node.index],
        op,
        [o.index for o in node.operands],
        shown(node.data),
        shown(got) if isinstance(got, float) else got,
        shown(node.grad),
        state,
    )


def _shown(seen, step):
    """Every step that did something, and every call a closure made itself."""
    return (
        step["depth"] > 0
        or seen.nodes[step["node"]].op is not None
        or step["grads"]
        or step["data"]
    )


def _display_step(seen, step):
    """A step as the step-through shows it: each write to a grad, in order, and what changed
    any data."""
    node = seen.nodes[step["node"]]
    shares = _shares(node, step)
    changes = [
        Change(j, "grad", _number_text(b), _number_text(a), _kind(shares, j, b, a))
        for j, b, a in step["writes"] or step["grads"]
    ]
    changes += [
        Change(j, "data", _number_text(b), _number_text(a), "changed") for j, b, a in step["data"]
    ]
    local = step.get("local_grads")
    local_text = ""
    if isinstance(local, list):
        local_text = "(" + ", ".join(map(_number_text, local)) + ("," * (len(local) == 1)) + ")"
    elif local is not None:
        local_text = f"a {local}, not a tuple"
    label = node.op.label if node.op else "leaf"
    return Step(step["node"], label, step["depth"], changes, local_text)


def _number_text(value):
    return shown(value) if isinstance(value, float) else str(value)


def _shares(node, step):
    """`{input: [share, ...]}`: what the op's rule adds to each input's grad at this step."""
    g = step["start"][node.index]
    if node.op is None or not isinstance(g, float):
        return {}
    try:
        locals_ = node.op.local(node.args())
    except (ArithmeticError, ValueError, TypeError):
        return {}
    shares = {}
    for operand, local in zip(node.operands, locals_, strict=False):
        shares.setdefault(operand.index, []).append(local * g)
    return shares


def _kind(shares, j, before, after):
    """How a write changed a grad: "added" a share of the op's rule, "replaced" what was there
    with one (`=` for `+=`), or "changed" it otherwise."""
    if j not in shares or not all(isinstance(v, float) for v in (before, after)):
        return "changed"
    if any(agrees(after, before + share) for share in shares[j]):
        return "added"
    if before != 0 and any(agrees(after, share) for share in shares[j]):
        return "replaced"
    return "changed"


def _diagnose(result, seen, exercise, theirs, error):
    if error:  # what the numbers say matters less than why the code stopped
        keys, said = error_keys(error, exercise, theirs, lambda op: scope(exercise.design, op))
        result.diagnoses = keys
        extra = [
            explain.diagnoses()[key] for key in keys if key not in ("not_in_scope", "builtin_name")
        ]
        result.diagnosis = " ".join([said] * bool(said) + extra)
        return
    found = diagnose(seen, exercise, theirs)
    keys, sentences = list(found.keys), []
    for op, op_keys, sentence, where in found.culprits:
        if sentence:
            sentences.append(sentence)
        result.culprits.append(
            Culprit(op, exercise_label(op), op_keys, sentence, *(where or (None, None)))
        )
    for (c, s), note in found.notes.items():
        visible = [i for i, step in enumerate(seen[c].steps) if _shown(seen[c], step)]
        if s in visible and c < len(result.checks):
            result.checks[c].steps[visible.index(s)].note = note
    result.diagnoses = keys
    said = [explain.diagnoses()[key] for key in keys if key not in ("not_in_scope", "builtin_name")]
    result.diagnosis = " ".join([*sentences, *(text for text in said if text)])
    for row in result.rows:
        if not row.passed and row.got is not None:
            row.diagnoses = keys


def exercise_label(op):
    from .ops import OPS

    return OPS[op].label


def _conclude(exercise, result):
    rows, error = result.rows, result.error
    failed = sum(not row.passed for row in rows)
    if error:
        result.verdict = "error"
        result.summary = error["summary"]
    elif failed:
        result.verdict = "fail"
        result.summary = f"{failed} of {len(rows)} gradients are wrong."
    else:
        result.verdict = "pass"
        result.summary = f"All {len(rows)} gradients match to seven decimals."
    if result.stubs and exercise.kind == "graph":
        labels = ", ".join(exercise_label(op) for op in result.stubs)
        result.summary += f" Still the starter code: {labels}. Write them on their own tabs."
    return result
