"""Find the bug: a tab whose code is a whole engine with one planted bug (`kind = "engine"`).

The learner's editor holds a whole Value class and on some tabs a training loop: the course's
engine (the op tabs' class with every reference in it, and `exercises/_engine/train.py`; its
solution) with the tab's `bug` planted in it. The runner
(runner/engine.py) runs it on the tab's fixed checks, on seeded random graphs (runner/fuzz.py's)
and on its training runs; the judge here holds every number to the answer key with the
seven-decimal rule, and never runs learner code: it draws the same graphs itself, and judges the
smallest failing graph the runner reports (grader/fuzz.py's `judged`) only once it has checked
that the graph is one the fuzzer could have made.

Below the last rung and at it alike, the words are numbers and a way to measure: which value is
wrong on which graph, what the engine gave, what is right, and what to nudge. They never name a
line of the engine, nor the fix.
"""

import hashlib
import json
import keyword
import math
import re
from functools import cache

from runner.engine import GRAPHS, SLOT, engine_graphs, training_runs
from runner.fuzz import EXPONENTS, LARGEST_DATA, build_code, kinds
from runner.numbers import decode
from runner.precision import agrees
from runner.sandbox import OUTPUT_LIMIT

from . import bug_diff
from .figures import seven
from .fuzz import judged, usable
from .fuzz_words import engine_did
from .kinds.base import Exercise, ExerciseError, KnownWrong, known_keys, read_text, read_toml
from .kinds.op import designs
from .observation import decode_error
from .ops import CLOSURES
from .present import unreadable
from .result import Check, Result, Row, Verdict
from .scaffold import assemble, labels

TRAIN = "_engine/train.py"  # in exercises/: the training loop of a tab with `[train]`, right
TRAIN_KEYS = {"w": float, "b": float, "points": list, "steps": int, "lr": float}
NAME = re.compile(r"[a-z][a-z0-9]{0,4}")
MOST_NODES = 12
SPELT_OUT = 3  # ops of a graph the diagnosis writes out (the table shows every graph)
LARGEST_EXPONENT = max(abs(e) for e in EXPONENTS)  # what the fuzzer and shrinking use


def engine_spec(spec, path):
    """An engine tab's own keys checked: `train`, `breaks`, and checks seeded with 1.0 (the
    learner's own `backward()` seeds them). Returns the spec with `train`'s numbers as floats
    where it takes floats, as a new dict."""
    if any(check.grad != 1.0 for check in spec["checks"]):
        raise ExerciseError(
            f"{path}: an engine's checks take no `grad`: its own backward() seeds 1"
        )
    if not isinstance(spec.get("breaks", ""), str):
        raise ExerciseError(f"{path}: `breaks` must be the id of a Break-it switch, as text")
    train = spec.get("train")
    if train is None:
        return spec
    if not isinstance(train, dict) or set(train) != set(TRAIN_KEYS):
        raise ExerciseError(f"{path}: `train` must give exactly {', '.join(TRAIN_KEYS)}")
    train = {key: _as(kind, train[key]) for key, kind in TRAIN_KEYS.items()}
    for key, kind in TRAIN_KEYS.items():
        if not isinstance(train[key], kind) or isinstance(train[key], bool):
            raise ExerciseError(f"{path}: `train.{key}` must be a {kind.__name__}")
    if not all(isinstance(p, list) and len(p) == 2 for p in train["points"]):
        raise ExerciseError(f"{path}: `train.points` must list [x, y] pairs")
    return spec | {"train": train}


def _as(kind, value):
    """A whole number where a float is asked for, as that float; any other value as it is."""
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def engine(codes, **bodies):
    """The course's engine: micrograd's Value class as the op tabs complete it
    (grader/scaffold.py), every closure its op tab's reference but those `bodies` give; `codes`
    is `{design: {op: (stub, solution)}}` as grader/exercises.py reads the op tabs."""
    references = {op: codes[CLOSURES].get(op, ("", ""))[1] for op in labels(CLOSURES)}
    source = assemble(CLOSURES, references | bodies)[0]
    return source.replace(YOURS, "", 1)  # the scaffold's invitation: here every line is written


YOURS = " Each _backward body is yours to write."  # grader/scaffold.py's CLOSURES_HEAD


def engine_exercise(folder, spec, codes):
    """The Exercise of an engine tab's folder: its one slot holds the whole source, the course's
    engine (`engine`) with the tab's bug planted, its solution the engine as it is."""

    path = folder / "exercise.toml"
    loop = "\n\n" + read_text(folder.parent / TRAIN) if spec.get("train") else ""
    fixed = engine(codes) + loop
    plant = _planter(codes, loop, fixed, spec["bug"], path)
    shipped = plant(spec["bug"].get("planted"), f"{path}: `bug.planted`")
    train = tuple(sorted(spec["train"].items())) if spec.get("train") else ()
    graded = [spec["kind"], spec["ops"], spec["checks"], train, shipped]
    return Exercise(
        id=folder.name,
        kind="engine",
        design="closures",
        label=spec["label"],
        ops=(SLOT,),
        prompt=bug_diff.prompt(spec["prompt"].strip(), shipped, fixed, path),
        hints=tuple(spec.get("hints", ())),
        why=spec.get("why", "").strip(),
        checks=spec["checks"],
        stubs={SLOT: shipped},
        solutions={SLOT: fixed},
        known_wrong=_answers(folder, plant),
        version=hashlib.sha256(repr(graded).encode()).hexdigest()[:12],
        draws=spec["ops"],
        train=train,
        breaks=spec.get("breaks", ""),
        fix=tuple(bug_diff.hunks(shipped, fixed)),
    )


def _planter(codes, loop, fixed, bug, path):
    """`plant(planted, where)`: the engine with `planted` in the place `bug` names: the body of
    its op's closure (`op`), or the lines `fixed`, which the engine holds once."""
    if not isinstance(bug, dict) or set(bug) not in ({"op", "planted"}, {"fixed", "planted"}):
        raise ExerciseError(f"{path}: `bug` must give `planted`, and `op` or `fixed`")
    if "op" in bug:
        if bug["op"] not in labels(CLOSURES):
            raise ExerciseError(f"{path}: `bug.op` must be one of {', '.join(labels(CLOSURES))}")
        op = bug["op"]
        return lambda body, where: _checked(
            engine(codes, **{op: body}) + loop if isinstance(body, str) else None,
            fixed,
            body,
            where,
        )
    if not isinstance(bug["fixed"], str) or fixed.count(bug["fixed"]) != 1:
        raise ExerciseError(
            f"{path}: `bug.fixed` must be lines the engine holds once (grader/engine.py "
            "`engine`), as text"
        )
    return lambda text, where: _checked(
        fixed.replace(bug["fixed"], text) if isinstance(text, str) else None,
        fixed,
        text,
        where,
    )


def _checked(shipped, fixed, planted, where):
    if not isinstance(planted, str) or shipped == fixed:
        raise ExerciseError(f"{where} must be text that changes the engine")
    return shipped


def _answers(folder, plant):
    """The tab's known wrong answers: each the engine with its `planted` where the tab's bug is
    (a "fix" that hides the bug on the fixed checks only, say)."""

    path = folder / ".meta" / "wrong_answers.toml"
    found = []
    for answer in read_toml(path).get("answer", []) if path.exists() else []:
        known_keys(path, answer, {"name", "diagnoses", "planted"}, "key")
        wrong = {SLOT: plant(answer.get("planted"), f"{path}: `planted` of {answer.get('name')!r}")}
        found.append(KnownWrong(answer.get("name", "?"), tuple(answer.get("diagnoses", ())), wrong))
    return tuple(found)


def expected_losses(run):
    """The losses a right training loop gives on `run` (runner/engine.py's `training_runs`):
    the mean squared error of w * x + b, its gradient in closed form, a step of size lr."""
    w, b, points = run["w"], run["b"], run["points"]
    losses = []
    for _ in range(run["steps"]):
        errors = [(w * x + b - y, x) for x, y in points]
        losses.append(sum(e * e for e, _ in errors) / len(points))
        dw = sum(2 * e * x for e, x in errors) / len(points)
        db = sum(2 * e for e, _ in errors) / len(points)
        w, b = w - run["lr"] * dw, b - run["lr"] * db
    return losses


def _graphs(exercises, draws):
    """`(labels, graphs)`: the random graphs of an engine tab over `draws`, as the runner draws
    them from the catalog's design (its references decide which graphs are kept)."""
    design = designs(exercises)["closures"]
    return design["labels"], _drawn(tuple(draws), json.dumps(design, sort_keys=True))


@cache
def _drawn(draws, design_json):
    """Drawn once for each set of ops and each design (its JSON: a key the cache can hold)."""
    return engine_graphs(json.loads(design_json), list(draws))


def judge_engine(exercise, observation, exercises):
    """The Result of an engine tab's run, `exercises` the catalog it is from."""
    labels, drawn = _graphs(exercises, exercise.draws)
    if not isinstance(observation, dict):
        return unreadable(exercise, (), "the report is not an object")
    said = {
        "stdout": _text(observation.get("stdout")),
        "stdout_truncated": observation.get("stdout_truncated") is True,
        "stdout_lines": _count(observation.get("stdout_lines")),
    }
    try:
        error = decode_error(observation.get("error"), exercise)
    except ValueError as problem:
        return unreadable(exercise, (), problem)
    checks = _fixed(exercise, observation.get("checks"))
    graphs = observation.get("graphs")
    if not error and (
        len(checks) != len(exercise.checks)
        or not isinstance(graphs, list)
        or len(graphs) != len(drawn)
    ):
        # a run that ended without an error ran them all
        return unreadable(exercise, (), "the run reported fewer checks or graphs than it ran")
    if error:
        summary = error.summary or "Your engine raised an error."
        return _result(exercise, Verdict.ERROR, summary, checks, error=error, **said)
    failing = [c for c in checks if not c.passed]
    graph_failure = _first_graph_failure(observation, drawn, labels)
    smallest = _smallest(observation, exercise, labels) if graph_failure else None
    trained = _trained(exercise, observation.get("train"))
    if not (failing or graph_failure or trained):
        return _result(exercise, Verdict.PASS, _passed(exercise), checks, **said)
    summary = _failed_summary(exercise, failing, graph_failure, trained)
    shown = smallest or (graph_failure if graph_failure and graph_failure[1].leaf else None)
    if shown:
        which = "the smallest random graph" if shown is smallest else f"random graph {shown[0]}"
        checks.append(_graph_check(shown[1], labels, which))
        diagnosis = _measure(shown[1], labels, which)
    elif trained:
        checks.append(trained[1])
        diagnosis = trained[2]
    elif failing:
        diagnosis = next(row.why for row in failing[0].rows if not row.passed)
    else:  # a random graph raised, or its report could not be read: said as the fuzzer says it
        number, failure = graph_failure
        graph = _spelt(failure.graph, labels, in_table=False)
        diagnosis = f"On random graph {number}, {graph}: {engine_did(failure)}"
    return _result(exercise, Verdict.FAIL, summary, checks, diagnosis=diagnosis, **said)


def _result(exercise, verdict, summary, checks, **told):
    return Result(
        exercise=exercise.id, verdict=verdict, summary=summary, checks=tuple(checks), **told
    )


def _check(built, given, rows):
    """A check of the engine's as the result shows it: its rows, no graph of the build's."""
    return Check(
        built=built,
        given=given,
        passed=all(row.passed for row in rows),
        complete=True,
        rows=tuple(rows),
        nodes=(),
        steps=(),
    )


def _row(value, got, expected, got_text, why):
    """A value of the engine's against the answer key (`got`: None when not a number)."""
    passed = got is not None and agrees(got, expected)
    return Row(
        value=value,
        node=0,
        got=got,
        expected=expected,
        got_text=got_text,
        expected_text=seven(expected),
        passed=passed,
        why="" if passed else why,
    )


def _text(value):
    return value[:OUTPUT_LIMIT] if isinstance(value, str) else ""


def _count(value):
    return value if type(value) is int and value >= 0 else 0


def _fixed(exercise, reported):
    """The fixed checks' rows, from the runner's grads (missing ones are not numbers)."""
    from .answer_key import answer

    checks = []
    for index, check in enumerate(exercise.checks):
        got = reported[index] if isinstance(reported, list) and index < len(reported) else None
        grads = got.get("grads") if isinstance(got, dict) else None
        if not isinstance(grads, dict):
            continue
        _, space = answer(check)
        rows = [
            _grad_row(name, grads.get(name), space[name].grad, check.output) for name in check.names
        ]
        given = ", ".join(f"{name} = {value!r}" for name, value in check.leaves.items())
        checks.append(_check(check.build, given, rows))
    return checks


def _grad_row(name, encoded, expected, output):
    try:
        got = decode(encoded)
    except ValueError:
        got = "unreadable"
    number = isinstance(got, float) and math.isfinite(got)
    text = seven(got) if number else str(got)
    got = got if number else None
    return _row(f"{name}.grad", got, expected, text, _nudge(name, output, got))


def _nudge(name, output, got):
    gave = f"the {seven(got)} your engine gave" if got is not None else "what your engine gave"
    return (
        f"Measure it: nudge `{name}` by a small h, rebuild the graph, and compare how far "
        f"`{output}` moves, over h, with {gave}."
    )


def _first_graph_failure(observation, drawn, labels):
    """`(number, Failure)` of the first random graph the engine gets wrong, else None."""
    reports = observation.get("graphs")
    for number, (graph, report) in enumerate(zip(drawn, reports, strict=True), 1):
        failure = judged(graph, report, labels)
        if failure:
            return number, failure
    return None


def _smallest(observation, exercise, labels):
    """The runner's smallest failing graph, if it is one the fuzzer could make and the answer
    key says it fails: `(0, Failure)`, else None."""
    found = observation.get("smallest")
    if not isinstance(found, dict) or not _valid(found.get("graph"), exercise.draws, labels):
        return None
    failure = judged(found["graph"], found.get("report"), labels)
    return (0, failure) if failure and failure.leaf else None


def _valid(graph, draws, labels):
    """Whether `graph` is plain data of runner/fuzz.py's shape over `draws`, its names plain
    identifiers: only then is its Python built and run by the answer key."""
    if not isinstance(graph, dict) or set(graph) != {"leaves", "nodes", "grad"}:
        return False
    leaves, nodes = graph["leaves"], graph["nodes"]
    if graph["grad"] != 1.0 or not isinstance(leaves, list) or not isinstance(nodes, list):
        return False
    if not leaves or len(leaves) + len(nodes) > MOST_NODES:
        return False
    names = set()
    for leaf in leaves:
        if not (isinstance(leaf, list) and len(leaf) == 2 and _name(leaf[0], names)):
            return False
        if not _number(leaf[1]):
            return False
        names.add(leaf[0])
    shapes = kinds({"labels": labels})
    for node in nodes:
        if not (isinstance(node, list) and len(node) == 3 and node[1] in draws):
            return False
        if not (_name(node[0], names) and _operands(node[2], shapes[node[1]], names)):
            return False
        names.add(node[0])
    return usable(graph, labels)


def _name(name, taken):
    return (
        isinstance(name, str)
        and NAME.fullmatch(name)
        and not keyword.iskeyword(name)
        and name not in taken
    )


def _number(value):
    """A leaf's value as the fuzzer and its shrinking make them: a float of moderate size (its
    arithmetic is quick, where an int's is exact and can be made endless)."""
    return type(value) is float and math.isfinite(value) and abs(value) <= LARGEST_DATA


def _constant(value, largest=LARGEST_DATA):
    """A constant operand (shrinking makes whole ones ints), or an exponent (`largest` its own
    bound): on float data, quick whatever its type."""
    return type(value) in (int, float) and math.isfinite(value) and abs(value) <= largest


def _operands(operands, shape, names):
    """A node's operands as the fuzzer draws them: a name first for a power or a unary op, one
    name at least, on either side, for a binary op."""
    count = {"binary": 2, "power": 2, "unary": 1}[shape]
    if not isinstance(operands, list) or len(operands) != count:
        return False
    named = [isinstance(o, str) and o in names for o in operands]
    if shape == "power":
        return named[0] and _constant(operands[1], LARGEST_EXPONENT)
    if not any(named):
        return False
    return all(is_name or _constant(o) for is_name, o in zip(named, operands, strict=True))


def _graph_check(failure, labels, which):
    graph = failure.graph
    given = ", ".join(f"{name} = {value!r}" for name, value in graph["leaves"])
    code = build_code(graph, labels) if graph["nodes"] else graph["leaves"][0][0]
    got = failure.got if isinstance(failure.got, float) else None
    text = seven(got) if got is not None else str(failure.got)
    got = got if got is not None and math.isfinite(got) else None
    output = graph["nodes"][-1][0] if graph["nodes"] else graph["leaves"][0][0]
    why = _nudge(failure.leaf, output, got)
    row = _row(f"{failure.leaf}.grad", got, failure.expected, text, why)
    return _check(code, f"{given}: {which} it gets wrong", [row])


def _spelt(graph, labels, in_table=True):
    """A graph as its code and leaves, or, when too long to read in a sentence and `in_table`
    (the result shows it as a check), where it is."""
    given = ", ".join(f"{name} = {value!r}" for name, value in graph["leaves"])
    code = "; ".join(build_code(graph, labels).splitlines()) or graph["leaves"][0][0]
    if len(graph["nodes"]) <= SPELT_OUT or not in_table:
        return f"`{code}` with {given}"
    return f"the last in the table below, {len(graph['nodes'])} ops long"


def _measure(failure, labels, what):
    shown = _spelt(failure.graph, labels)
    got = seven(failure.got) if isinstance(failure.got, float) else str(failure.got)
    return (
        f"{what[:1].upper() + what[1:]} it gets wrong is {shown}: `{failure.leaf}.grad` is {got}, "
        f"where "
        f"{seven(failure.expected)} is right. Put a gradient checker on it: nudge "
        f"`{failure.leaf}` by a small h, run the graph forward again, and watch the output move."
    )


def _trained(exercise, runs):
    """`(number, Check, sentence)` of the first training run whose losses are wrong, else
    None (and a run that is not reported counts as wrong)."""
    if not exercise.train:
        return None
    wanted = training_runs(dict(exercise.train))
    if not isinstance(runs, list) or len(runs) != len(wanted):
        runs = [None] * len(wanted)
    for number, (run, ran) in enumerate(zip(wanted, runs, strict=True), 1):
        losses = ran.get("losses") if isinstance(ran, dict) else None
        problem = _losses_differ(run, losses)
        if problem:
            return number, *problem
    return None


def _losses_differ(run, losses):
    expected = expected_losses(run)
    got = []
    for item in losses if isinstance(losses, list) else []:
        try:
            got.append(decode(item))
        except ValueError:
            got.append("unreadable")
    built = f"losses = train(w, b, points, steps={run['steps']}, lr={run['lr']!r})"
    given = f"w = {run['w']!r}, b = {run['b']!r}, points = {run['points']!r}"
    for step, right in enumerate(expected, 1):
        value = got[step - 1] if step <= len(got) else "missing"
        number = isinstance(value, float) and math.isfinite(value)
        if number and agrees(value, right):
            continue
        text = seven(value) if number else str(value)
        row = _row(f"losses[{step - 1}]", value if number else None, right, text, "")
        sentence = (
            f"With {given}, `{built}` gives the loss {text} at step {step}, where "
            f"{seven(right)} is right. Measure it: before each step's update, nudge w by a "
            "small h, work the loss out again, and compare its slope with w.grad."
        )
        return _check(built, given, [row]), sentence
    return None


def _passed(exercise):
    trained = ", and every training run" if exercise.train else ""
    return (
        f"Your engine gets every check and all {GRAPHS} random graphs right{trained}, to "
        "seven decimals."
    )


def _failed_summary(exercise, failing, graph_failure, trained):
    if failing:
        return f"Your engine gets {len(failing)} of the {len(exercise.checks)} checks wrong."
    if graph_failure:
        number = graph_failure[0]
        return (
            f"Your engine passes every fixed check, but gets random graph {number} of {GRAPHS} "
            "wrong: the fixed checks alone do not show every bug."
        )
    return (
        f"Your engine gets every graph right, but training run {trained[0]} of "
        f"{len(training_runs(dict(exercise.train)))} gives other losses than a right one."
    )
