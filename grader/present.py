"""The judge's last step: an Observation (grader/observation.py) and its Diagnosis
(grader/diagnose.py) become the Result the learner reads (grader/result.py): the rows of
checked grads, the graph's nodes, the step-through, the verdict and its sentences."""

from . import explain
from .figures import brief, figure, seven, tuple_text
from .ops import OPS
from .precision import agrees
from .result import Change, Check, Culprit, GraphNode, Result, Row, Step


def present(exercise, observation, stubs, told=frozenset()):
    """The Result of a readable run, its verdict decided; `tell` adds why, when it failed.
    `told`: the ops whose rule its sentences may say (grader/disclosure.py)."""
    result = Result(exercise.id, stubs=stubs)
    result.stdout, result.stdout_truncated = observation.stdout, observation.stdout_truncated
    result.error = _plain_error(observation.error)
    result.checks = [_check(seen, exercise, told) for seen in observation.checks]
    return _conclude(exercise, result)


def unreadable(exercise, stubs, problem):
    """The Result of a run whose report no run could have sent: it cannot count."""
    summary = (
        "The run sent back something the grader cannot read, so it cannot count. Run the "
        "test again; if this keeps happening, reload the page."
    )
    error = dict.fromkeys(("slot", "label", "line", "name", "builtin"))
    error.update(type="Unreadable", message=str(problem)[:200], source_line="")
    error.update(summary=summary, text=summary)
    return Result(exercise.id, verdict="error", summary=summary, error=error, stubs=stubs)


def shown_steps(seen):
    """The indices of the steps the step-through shows: every step that did something, and
    every call a closure made itself."""
    return [
        s
        for s, step in enumerate(seen.steps)
        if step.depth > 0 or seen.nodes[step.node].op is not None or step.grads or step.data
    ]


def _plain_error(error):
    if error is None:
        return None
    return {name: getattr(error, name) for name in type(error).__slots__}


def tell(result, observation, diagnosis, exercise, told=frozenset()):
    """The diagnosis in the result: its keys, its sentences (each culprit's explanation beside
    it, on the learner's rung: `told`), each culprit tied to its step."""
    result.diagnoses = diagnosis.keys
    said = set(explain.SAID_WITH_NAMES)
    parts = [diagnosis.said]

    def explained(keys):
        fresh = [key for key in keys if key not in said]
        said.update(fresh)
        return [explain.words(key, exercise, told) for key in fresh]

    for culprit in diagnosis.culprits:
        check, step = _displayed(observation, culprit)
        result.culprits.append(
            Culprit(culprit.op, OPS[culprit.op].label, culprit.keys, culprit.sentence, check, step)
        )
        if culprit.sentence and step is not None:
            result.checks[check].steps[step].note = culprit.sentence
        said.update(culprit.covers)
        parts += [culprit.sentence, culprit.reading, *explained(culprit.keys)]
    parts += explained(diagnosis.keys)
    result.diagnosis = " ".join(text for text in parts if text)
    if not observation.error:
        unpaired = set(diagnosis.keys) & {"not_a_tuple", "wrong_length"}
        for row in result.rows:
            if not row.passed and row.got is not None:
                row.diagnoses = diagnosis.keys
            if not row.passed and unpaired:
                row.why = (
                    f"{row.value} should be {brief(row.expected)}: `backward()` could not pair "
                    "your local gradients with the inputs (see above)."
                )


def _displayed(observation, culprit):
    """`(check, step)`: where the step-through shows the step that shows the culprit."""
    if culprit.where is None:
        return None, None
    check, step = culprit.where
    shown = shown_steps(observation.checks[check])
    return check, (shown.index(step) if step in shown else None)


def _given(check):
    given = [f"{name} = {value!r}" for name, value in check.leaves.items()]
    return ", ".join([*given, f"{explain.grad_of(check.output)} = {check.grad!r}"])


def _uses(nodes):
    """`{node: [the node using it, once per use]}`."""
    found = {node.index: [] for node in nodes}
    for node in nodes:
        for operand in node.operands:
            found[operand.index].append(node)
    return found


def _check(seen, exercise, told):
    checked = {seen.names.index(name) for name in seen.check.names} if seen.complete else set()
    uses = _uses(seen.nodes)
    order = sorted(checked, key=lambda j: seen.check.names.index(seen.names[j]))
    rows = [_row(seen, j, uses[j], exercise, told) for j in order]
    passed = {row.node: row.passed for row in rows}
    first = seen.steps[0].start if seen.steps else seen.got
    return Check(
        built=seen.check.build,
        given=_given(seen.check),
        passed=all(passed.values()),
        complete=seen.complete,
        rows=rows,
        nodes=[_graph_node(seen, node, passed.get(node.index)) for node in seen.nodes],
        steps=[_step(seen, seen.steps[s]) for s in shown_steps(seen)],
        start=[figure(value) for value in first],
        steps_dropped=seen.dropped,
    )


def _row(seen, j, uses, exercise, told):
    name, got, expected = seen.names[j], seen.got[j], seen.nodes[j].grad
    value = explain.grad_of(name)
    if isinstance(got, str):  # not a number at all: the name of what it was
        why = explain.not_a_number_sentence(name, got, exercise.design)
        return Row(value, j, None, expected, got, seven(expected), False, why, ["not_a_number"])
    if not agrees(got, got):  # nan or infinite
        why = explain.not_a_number_sentence(name, seven(got))
        return Row(
            value, j, None, expected, seven(got), seven(expected), False, why, ["not_finite"]
        )
    passed = agrees(got, expected)
    if passed:
        why = f"{value} is {brief(expected)}, as expected."
    else:
        why = _passed_on(seen, name, uses, exercise) or explain.expected_sentence(
            name, expected, [user.op.name for user in uses], exercise.design, told
        )
    return Row(value, j, got, expected, seven(got), seven(expected), passed, why)


def _passed_on(seen, name, uses, exercise):
    """Why a grad is wrong when the one op using it is the course's own code: the grad it passes
    on was wrong already (a row's why is about the op at fault, never another op's rule)."""
    if len(uses) != 1 or uses[0].op.name in exercise.ops:
        return ""
    user = uses[0]
    got, expected = seen.got[user.index], user.grad
    if not isinstance(got, float) or agrees(got, expected):
        return ""
    return (
        f"{explain.grad_of(name)} comes through `{user.op.label}`, which passes on "
        f"{explain.grad_of(seen.names[user.index])}: that is {brief(got)}, not {brief(expected)}."
    )


def _graph_node(seen, node, passed):
    state = "unchecked" if passed is None else "right" if passed else "wrong"
    op = "" if node.op is None else (f"**{node.exponent!r}" if node.op.power else node.op.symbol)
    inputs = [o.index for o in node.operands]
    got = figure(seen.got[node.index])
    name = seen.names[node.index]
    return GraphNode(node.index, name, op, inputs, seven(node.data), got, seven(node.grad), state)


def _step(seen, step):
    """A step as the step-through shows it: each write to a grad, in order, and what changed
    any data."""
    node = seen.nodes[step.node]
    shares = _shares(node, step)
    changes = [
        Change(w.node, "grad", figure(w.before), figure(w.after), _kind(shares, w))
        for w in step.writes or step.grads
    ]
    changes += [
        Change(w.node, "data", figure(w.before), figure(w.after), "changed") for w in step.data
    ]
    local = step.local_grads
    local_text = ""
    if isinstance(local, list):
        local_text = tuple_text(local, seven)
    elif local is not None:
        local_text = f"a {local}, not a tuple"
    label = node.op.label if node.op else "leaf"
    return Step(step.node, label, step.depth, changes, local_text)


def _shares(node, step):
    """`{input: [share, ...]}`: what the op's rule adds to each input's grad at this step."""
    g = step.start[node.index]
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


def _kind(shares, write):
    """How a write changed a grad: "added" a share of the op's rule, "replaced" what was there
    with one (`=` for `+=`), or "changed" it otherwise."""
    j, before, after = write.node, write.before, write.after
    if j not in shares or not all(isinstance(v, float) for v in (before, after)):
        return "changed"
    if any(agrees(after, before + share) for share in shares[j]):
        return "added"
    if before != 0 and any(agrees(after, share) for share in shares[j]):
        return "replaced"
    return "changed"


def _conclude(exercise, result):
    rows, error = result.rows, result.error
    failed = sum(not row.passed for row in rows)
    if error:
        result.verdict = "error"
        result.summary = error["summary"]
    elif failed:
        result.verdict = "fail"
        result.summary = (
            f"{failed} of {len(rows)} gradients {'is' if failed == 1 else 'are'} wrong."
        )
    else:
        result.verdict = "pass"
        result.summary = f"All {len(rows)} gradients match to seven decimals."
    if result.stubs and exercise.kind == "graph":
        labels = ", ".join(OPS[op].label for op in result.stubs)
        them = "them on their own tabs" if len(result.stubs) > 1 else "it on its own tab"
        result.summary += f" Still the starter code: {labels}. Write {them}."
    return result
