"""The checker kind: the learner writes a gradient checker's three functions in one slot
(grader/checker.py reads its exercise.toml and holds its answer key).

Its judge: the runner's report of what the learner's functions returned (runner/checker.py),
untrusted, decoded; each value held to the answer key with the one seven-decimal rule; and the
verdict in the usual Result (grader/result.py), its words on the learner's rung
(grader/disclosure.py): below the formula rung, numbers and a way to measure, never the
checker's formulas.
"""

import math

from runner.checker import MAX_CALLS, PLOT_OPS, arguments
from runner.numbers import decode
from runner.precision import agrees

from .. import checker
from ..checker import GOOD_H, central, expected, relative
from ..disclosure import told_ops
from ..figures import figure, seven
from ..observation import Unreadable, decode_error, decode_output
from ..result import Check, Result, Row, Verdict
from .base import ExerciseError, Kind, written
from .op import slot_exercise, trained_ops

STARTER = (
    "Your code is still the starter code: each function returns 0.0. Write the three "
    "functions above, then run the test."
)


def judge_checker(exercise, observation, stubs, told):
    """The Result of a run of the learner's checker; `told`: whether the formulas may be said."""
    try:
        measured, error, printed = _decode(observation, exercise)
    except (Unreadable, AttributeError, TypeError, ValueError, KeyError) as problem:
        from ..present import unreadable

        return unreadable(exercise, stubs, problem)
    checks = tuple(
        _check(check, got) for check, (got, _) in zip(exercise.checks, measured, strict=False)
    )
    rows = [row for check in checks for row in check.rows]
    failed = sum(not row.passed for row in rows)
    if error:
        verdict, summary = Verdict.ERROR, error.summary
        diagnoses, diagnosis = (), _raised(exercise, len(measured), error)
    elif failed:
        verdict = Verdict.FAIL
        summary = f"{failed} of {len(rows)} values {'is' if failed == 1 else 'are'} wrong."
        found, said = (
            (["nothing"], [STARTER]) if stubs else _diagnose(exercise, measured, bool(told))
        )
        diagnoses, diagnosis = tuple(found), " ".join(said)
    else:
        verdict, summary = Verdict.PASS, f"All {len(rows)} values match to seven decimals."
        diagnoses, diagnosis = (), ""
    return Result(
        exercise=exercise.id,
        verdict=verdict,
        summary=summary,
        checks=checks,
        error=error,
        stubs=tuple(stubs),
        diagnoses=diagnoses,
        diagnosis=diagnosis,
        **printed,
    )


def _raised(exercise, index, error):
    """Where a run that raised stopped: the line, and the check it was on, to try by hand."""
    where = f"Line {error.line} of your `{error.label}` code" if error.line else "Your code"
    if index >= len(exercise.checks):
        return f"{where} raised before any check ran."
    check = exercise.checks[index]
    return (
        f"{where} raised on the check {check.built} with {check.given_text}: call your "
        "function yourself on those numbers."
    )


def _decode(observation, exercise):
    checks = observation["checks"]
    if not isinstance(checks, list) or len(checks) > len(exercise.checks):
        raise Unreadable("checks")
    measured = []
    for item in checks:
        hs = item["hs"]
        if not isinstance(hs, list) or len(hs) > MAX_CALLS:
            raise Unreadable("hs")
        measured.append((decode(item["got"]), [decode(h) for h in hs]))
    error = decode_error(observation.get("error"), exercise)
    printed = decode_output(observation)
    if error is None and len(measured) != len(exercise.checks):
        raise Unreadable("the run reported fewer checks than the exercise has")
    return measured, error, printed


def _check(check, got):
    want = expected(check)
    number = isinstance(got, float) and math.isfinite(got)
    passed = number and agrees(got, want)
    why = "" if passed else _why(check, got, want)
    row = Row(
        value=check.call,
        node=0,
        got=got if number else None,
        expected=want,
        got_text=figure(got),
        expected_text=seven(want),
        passed=passed,
        why=why,
    )
    return Check(
        built=check.built,
        given=check.given_text,
        passed=passed,
        complete=True,
        rows=(row,),
        nodes=(),
        steps=(),
    )


def _why(check, got, want):
    gap = (
        f", {seven(abs(got - want))} away" if isinstance(got, float) and math.isfinite(got) else ""
    )
    if check.call == "check" and want > 1e-7:
        return (
            f"Expected {seven(want)}{gap}: the gradient given here is not f's, and a checker "
            "says by how much."
        )
    if check.call == "check":
        return (
            f"Expected {seven(want)}{gap}: measured at a well-chosen h, the numerical gradient "
            f"of f at x = {check.given['x']!r} agrees with f'(x) to better than seven decimals."
        )
    if check.call == "relative_error":
        return f"Expected {seven(want)}{gap}: the same for a and b scaled by any factor."
    return f"Expected {seven(want)}{gap}: the derivative of f at x, measured with this h."


def _diagnose(exercise, measured, told):
    """`(keys, sentences)`: the classic mistakes the numbers show, each said on the rung."""
    keys, said = [], []
    pairs = list(zip(exercise.checks, measured, strict=False))
    grads_right = True
    for check, (got, _) in pairs:
        if check.call == "numerical_grad" and not _right(check, got):
            grads_right = False
            if "forward" not in keys and _one_sided(check, got):
                keys.append("forward")
                said.append(_forward(check, got, told))
        if check.call == "relative_error" and not _right(check, got) and "absolute" not in keys:
            a, b = arguments(check.data())
            if isinstance(got, float) and agrees(got, abs(a - b)):
                keys.append("absolute")
                said.append(_absolute(check, got, told))
    for check, (got, hs) in pairs:
        if check.call != "check" or _right(check, got) or not grads_right or not hs:
            continue
        if not isinstance(got, float):  # not a number at all: the row says what it was
            continue
        h = hs[0] if isinstance(hs[0], float) else None
        # the check failed where a good h passes: the h is off, one way or the other
        key = "h_too_small" if h and h < GOOD_H else "h_too_large" if h and h > GOOD_H else None
        if key and key not in keys:
            keys.append(key)
            said.append(_h_said(key, check, got, h, told))
    if not keys:
        said.append(
            "Call your function yourself on a failing row's numbers and print what it computes "
            "step by step, beside the expected value."
        )
    return keys, said


def _right(check, got):
    return isinstance(got, float) and math.isfinite(got) and agrees(got, expected(check))


def _one_sided(check, got):
    f, x, h = arguments(check.data())
    sides = ((f(x + h) - f(x)) / h, (f(x) - f(x - h)) / h)
    return isinstance(got, float) and any(agrees(got, side) for side in sides)


def _forward(check, got, told):
    f, x, h = arguments(check.data())
    if told:
        return (
            "Your `numerical_grad` takes a forward difference, (f(x + h) - f(x)) / h, whose "
            "error is about h·f''(x)/2. The central difference, (f(x + h) - f(x - h)) / (2h), "
            "cancels that term: its error is about h²·f'''(x)/6."
        )
    want = expected(check)
    half = (f(x + h / 2) - f(x)) / (h / 2)
    return (
        f"Your `numerical_grad` gave {seven(got)} for f(x) = {check.given['f']} at x = {x!r} "
        f"with h = {h!r}, {seven(abs(got - want))} from the expected {seven(want)}. Measure "
        f"with h halved: the gap of a measurement like yours halves too (about "
        f"{seven(abs(half - want))}), while the expected one's falls to a quarter."
    )


def _absolute(check, got, told):
    a, b = arguments(check.data())
    if told:
        return (
            "Your `relative_error` returns |a - b|, which grows and shrinks with the numbers' "
            "scale. Divide it by the larger of |a| and |b| (with a tiny floor, so that two "
            "zeros give 0): |a - b| / max(|a|, |b|, tiny)."
        )
    scale = 1_000_000
    return (
        f"Your `relative_error({a!r}, {b!r})` gave {seven(got)}, the gap in the numbers' own "
        f"units. Scale both by {scale:,} and that gap becomes {abs(a - b) * scale:,.0f}, though "
        f"the two agree exactly as well; the expected {seven(expected(check))} stays the same "
        "at every scale. Measure it: call your function on both pairs."
    )


def _h_said(key, check, got, h, told):
    f, x, grad = arguments(check.data())
    at_good = relative(central(f, x, GOOD_H), grad)
    if told and key == "h_too_small":
        return (
            f"At h = {h:g}, f(x + h) and f(x - h) share all but their last few digits: the "
            "rounding in each, about 2.2e-16 times |f(x)|, divided by 2h, swamps the "
            f"difference. The truncation error of (f(x + h) - f(x - h)) / (2h) falls as h², "
            f"the rounding grows as 1/h: they balance near h = 1e-5."
        )
    if told:
        return (
            f"At h = {h:g} the central difference's truncation error, about h²·f'''(x)/6, is "
            "larger than seven decimals allow; near h = 1e-5 it is far below, and rounding "
            "still small."
        )
    which = "small" if key == "h_too_small" else "large"
    return (
        f"Your `check` measured with h = {h:g}: for f(x) = {check.given['f']} at x = "
        f"{x!r} its relative error came out {got:.2e}; at a well-chosen h it comes out near "
        f"{at_good:.0e}. That h is too {which}: measure the error at every h from 1e-1 down to "
        "1e-12 and see where it is smallest (the plot on this page does it for an op)."
    )


def _judge(exercise, bodies, observation, exercises, told):
    told = told_ops(exercise, told)
    _, stubs = written(exercise, bodies)
    return judge_checker(exercise, observation, stubs, told)


def _runner(exercise):
    """runner/checker.py calls the learner's functions: no class, the checks as data."""
    return {
        "design": exercise.design,
        "kind": exercise.kind,
        "sweeps": True,  # its nudge tool plots the learner's op code against h (runner/nudge.py)
        "label": exercise.label,
        "ops": list(exercise.ops),
        "stubs": exercise.stubs,
        "checks": [check.data() for check in exercise.checks],
    }


def _widget(exercise, catalog):
    """Its functions' names are the learner's own; its plot (runner/checker.py `sweep`) measures
    op tabs' closures, as the trainers read them (`trained_ops`)."""
    plotted = [*(op for op, _ in PLOT_OPS), "relu"]
    return {
        "scope": {op: ["f", "x", "h", "a", "b", "grad", "math"] for op in exercise.ops},
        "trained_ops": trained_ops(catalog, "closures", plotted),
    }


CHECKER = Kind(
    name="checker",
    keys=frozenset(checker.KEYS),
    required=checker.REQUIRED,
    spec=lambda path, spec: checker.checker_spec(path, spec, ExerciseError),
    make=lambda folder, spec, codes: slot_exercise(folder, spec, codes, computed=False),
    judge=_judge,
    runner=_runner,
    widget=_widget,
    writes_op=True,  # its one slot is written like an op's
    check_graphs=False,  # its checks call functions: no graph to draw
    references="none",
    functions=True,  # the learner's gradient checker: functions of `f`, `x` and `h`
)
