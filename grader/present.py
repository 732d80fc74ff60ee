"""The judge's last step: an Observation (grader/observation.py) and its Diagnosis
(grader/diagnosis/diagnose.py) become the Result the learner reads (grader/result.py): the rows of
checked grads, the graph's nodes, the step-through, the verdict and its sentences."""

from dataclasses import replace

from runner.precision import agrees

from .diagnosis import explain
from .figures import brief, figure, seven, tuple_text
from .ops import OPS
from .result import Change, Check, Error, GraphNode, Result, Row, Step, Verdict


def checks_of(exercise, observation, told=frozenset(), values=("self", "out")):
    """Each check of a readable run as the learner reads it, rows decided; `told`: the ops
    whose rule its sentences may say (grader/disclosure.py); `values`: the Values its code may
    have put where a number belongs (grader/diagnosis/advice.py)."""
    return tuple(_check(seen, exercise, told, values) for seen in observation.checks)


def verdict_of(checks, observation):
    if observation.error:
        return Verdict.ERROR
    return Verdict.FAIL if any(not row.passed for c in checks for row in c.rows) else Verdict.PASS


def present(exercise, observation, stubs, checks, diagnosis=None, told=frozenset()):
    """The Result of a readable run, built once: its `checks` (from `checks_of`) and, when it
    failed or raised, its `diagnosis` (grader/diagnosis/diagnose.py) told on the learner's rung."""
    error = observation.error
    told_why = {}
    if diagnosis:
        checks = _noted(checks, diagnosis, observation.error)
        told_why = {
            "diagnoses": tuple(diagnosis.diagnoses),
            "diagnosis": _diagnosis_text(diagnosis, exercise, told),
            "culprits": tuple(diagnosis.culprits),
        }
    return Result(
        exercise=exercise.id,
        verdict=verdict_of(checks, observation),
        summary=_summary(exercise, checks, error, stubs),
        checks=tuple(checks),
        error=error,
        stubs=tuple(stubs),
        stdout=observation.stdout,
        stdout_truncated=observation.stdout_truncated,
        stdout_lines=observation.stdout_lines,
        **told_why,
    )


def unreadable(exercise, stubs, problem):
    """The Result of a run whose report no run could have sent: it cannot count."""
    summary = (
        "The run sent back something the grader cannot read, so it cannot count. Run the "
        "test again; if this keeps happening, reload the page."
    )
    error = Error(type="Unreadable", message=str(problem)[:200], summary=summary, text=summary)
    return Result(
        exercise=exercise.id, verdict=Verdict.ERROR, summary=summary, error=error, stubs=stubs
    )


def shown_steps(seen):
    """The indices of the steps the step-through shows: every step that did something, and
    every call a closure made itself."""
    return [
        s
        for s, step in enumerate(seen.steps)
        if step.depth > 0 or seen.nodes[step.node].op is not None or step.grads or step.data
    ]


def _diagnosis_text(diagnosis, exercise, told):
    """The diagnosis's sentences: each culprit's, with its explanation beside it, on the
    learner's rung (`told`); each explanation once."""
    said = set(explain.SAID_WITH_NAMES)
    parts = [diagnosis.said]

    def explained(keys):
        fresh = [key for key in keys if key not in said]
        said.update(fresh)
        return [explain.words(key, exercise, told) for key in fresh]

    for culprit in diagnosis.culprits:
        said.update(culprit.covers)
        parts += [culprit.sentence, culprit.reading, *explained(culprit.diagnoses)]
    parts += explained(diagnosis.diagnoses)
    return " ".join(text for text in parts if text)


def _noted(checks, diagnosis, error):
    """`checks` with each culprit's sentence on the step that shows it, and each failing row
    given the diagnoses."""
    notes = {
        (culprit.check, culprit.step): culprit.sentence
        for culprit in diagnosis.culprits
        if culprit.sentence and culprit.step is not None
    }
    unpaired = set(diagnosis.diagnoses) & {"not_a_tuple", "wrong_length"}

    def row_of(row):
        if row.passed or error:
            return row
        if unpaired:
            why = (
                f"{row.value} should be {brief(row.expected)}: `backward()` could not pair "
                "your local gradients with the inputs (see above)."
            )
            row = replace(row, why=why)
        return row if row.got is None else replace(row, diagnoses=tuple(diagnosis.diagnoses))

    return tuple(
        replace(
            check,
            rows=tuple(map(row_of, check.rows)),
            steps=tuple(
                replace(step, note=notes[c, s]) if (c, s) in notes else step
                for s, step in enumerate(check.steps)
            ),
        )
        for c, check in enumerate(checks)
    )


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


def _check(seen, exercise, told, values):
    checked = {seen.names.index(name) for name in seen.check.names} if seen.complete else set()
    uses = _uses(seen.nodes)
    order = sorted(checked, key=lambda j: seen.check.names.index(seen.names[j]))
    rows = [_row(seen, j, uses[j], exercise, told, values) for j in order]
    passed = {row.node: row.passed for row in rows}
    first = seen.steps[0].start if seen.steps else seen.got
    return Check(
        built=seen.check.build,
        given=_given(seen.check),
        passed=all(passed.values()),
        complete=seen.complete,
        rows=tuple(rows),
        nodes=tuple(_graph_node(seen, node, passed.get(node.index)) for node in seen.nodes),
        steps=tuple(_step(seen, seen.steps[s]) for s in shown_steps(seen)),
        start=tuple(figure(value) for value in first),
        steps_dropped=seen.dropped,
    )


def _row(seen, j, uses, exercise, told, values):
    name, got, expected = seen.names[j], seen.got[j], seen.nodes[j].grad
    row = {"value": explain.grad_of(name), "node": j, "expected": expected}
    row["expected_text"] = seven(expected)
    if isinstance(got, str):  # not a number at all: the name of what it was
        why = explain.not_a_number_sentence(name, got, values)
        return Row(
            **row, got=None, got_text=got, passed=False, why=why, diagnoses=("not_a_number",)
        )
    if not agrees(got, got):  # nan or infinite
        why = explain.not_a_number_sentence(name, seven(got))
        return Row(
            **row, got=None, got_text=seven(got), passed=False, why=why, diagnoses=("not_finite",)
        )
    passed = agrees(got, expected)
    if passed:
        why = f"{row['value']} is {brief(expected)}, as expected."
    else:
        why = _passed_on(seen, name, uses, exercise) or explain.expected_sentence(
            name, expected, [user.op.name for user in uses], exercise.design, told
        )
    return Row(**row, got=got, got_text=seven(got), passed=passed, why=why)


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
    return GraphNode(
        id=node.index,
        name=seen.names[node.index],
        op=op,
        inputs=tuple(o.index for o in node.operands),
        data_text=seven(node.data),
        grad_text=figure(seen.got[node.index]),
        expected_text=seven(node.grad),
        state=state,
    )


def _step(seen, step):
    """A step as the step-through shows it: each write to a grad, in order, and what changed
    any data."""
    node = seen.nodes[step.node]
    shares = _shares(node, step)
    changes = [_change(w, "grad", _kind(shares, w)) for w in step.writes or step.grads] + [
        _change(w, "data", "changed") for w in step.data
    ]
    local = step.local_grads
    local_text = ""
    if isinstance(local, list):
        local_text = tuple_text(local, seven)
    elif local is not None:
        local_text = f"a {local}, not a tuple"
    label = node.op.label if node.op else "leaf"
    return Step(
        node=step.node,
        label=label,
        depth=step.depth,
        changes=tuple(changes),
        local_grads_text=local_text,
    )


def _change(write, what, kind):
    return Change(
        node=write.node,
        what=what,
        before_text=figure(write.before),
        after_text=figure(write.after),
        kind=kind,
    )


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


def _summary(exercise, checks, error, stubs):
    rows = [row for check in checks for row in check.rows]
    failed = sum(not row.passed for row in rows)
    if error:
        summary = error.summary
    elif failed:
        summary = f"{failed} of {len(rows)} gradients {'is' if failed == 1 else 'are'} wrong."
    else:
        summary = f"All {len(rows)} gradients match to seven decimals."
    if stubs and exercise.needs_op_tabs:  # its slots are written on the op tabs
        labels = ", ".join(OPS[op].label for op in stubs)
        them = "them on their own tabs" if len(stubs) > 1 else "it on its own tab"
        summary += f" Still the starter code: {labels}. Write {them}."
    return summary
