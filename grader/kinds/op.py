"""The op and graph kinds: the learner writes ops' code in the design's Value class. An op tab
is one op's (its folder holds that op's starter and reference code, and its nudge tool); a graph
tab runs several op tabs' code on whole graphs."""

import hashlib

from ..diagnosis.advice import values_used
from ..diagnosis.diagnose import diagnose, diagnose_error
from ..disclosure import told_ops
from ..observation import Unreadable, decode_observation
from ..ops import OPS, ops_of
from ..present import checks_of, present, unreadable, verdict_of
from ..result import Verdict
from ..scaffold import DESIGNS, labels, scope, segments
from .base import Exercise, ExerciseError, Kind, check_of, computable, known_wrong, written

TEXTS = ("label", "prompt", "hints", "why", "checks")


def ops_spec(path, spec, ops):
    """The spec of an exercise on the Value class's `ops`: they, its hints and checks checked."""
    design = spec["design"]
    if not isinstance(ops, list) or not ops or not all(isinstance(op, str) for op in ops):
        raise ExerciseError(f"{path}: `ops` must list op names")
    names = [op.name for op in ops_of(design)]
    unknown = [op for op in ops if op not in names]
    if unknown:
        raise ExerciseError(
            f"{path}: no op {', '.join(unknown)} in the {design} Value class; "
            f"it has {', '.join(names)} (an op is added in grader/ops.py)"
        )
    hints = spec.get("hints", [])
    if not isinstance(hints, list) or not all(isinstance(hint, str) for hint in hints):
        raise ExerciseError(f"{path}: `hints` must be a list of texts")
    if not isinstance(spec["checks"], list) or not spec["checks"]:
        raise ExerciseError(f"{path}: `checks` must list at least one check")
    checks = tuple(check_of(table, path) for table in spec["checks"])
    return spec | {"ops": tuple(ops), "checks": checks}


def slot_exercise(folder, spec, codes, computed=True):
    """The Exercise of a tab whose slots are ops' (or a checker's one): their starter and
    reference code from `codes`, the tabs that write them; `computed`: its checks are graphs the
    answer key must be able to compute."""
    design = spec["design"]
    missing = [op for op in spec["ops"] if op not in codes[design]]
    if missing:
        raise ExerciseError(
            f"{folder / 'exercise.toml'}: no op exercise of the {design} design for "
            f"{', '.join(missing)}: its stub and reference come from there"
        )
    for check in spec["checks"] if computed else ():
        computable(check, folder / "exercise.toml")
    stubs = {op: codes[design][op][0] for op in spec["ops"]}
    solutions = {op: codes[design][op][1] for op in spec["ops"]}
    # what is graded: a change of words (prompt, hints, label) keeps a learner's passed mark
    graded = [spec[key] for key in ("kind", "design", "ops", "checks")]
    version = hashlib.sha256(repr((graded, stubs)).encode()).hexdigest()[:12]
    return Exercise(
        id=folder.name,
        kind=spec["kind"],
        design=design,
        label=spec.get("label") or OPS[spec["ops"][0]].label,
        ops=spec["ops"],
        prompt=spec["prompt"].strip(),
        hints=tuple(spec.get("hints", ())),
        why=spec.get("why", "").strip(),
        checks=spec["checks"],
        stubs=stubs,
        solutions=solutions,
        known_wrong=known_wrong(folder, spec, solutions),
        version=version,
        worked=spec.get("worked", ""),
        example=spec.get("example", ""),
    )


def judge_values(exercise, bodies, observation, exercises, told):
    """The Result of a run of the learner's Value class on the exercise's checks."""
    told = told_ops(exercise, told)
    theirs, stubs = written(exercise, bodies)
    try:
        observation = decode_observation(observation, exercise)
    except Unreadable as problem:
        return unreadable(exercise, stubs, problem)
    checks = checks_of(exercise, observation, told, values_used(exercise, theirs))
    diagnosis = None
    if observation.error:
        diagnosis = diagnose_error(observation.error, exercise, theirs)
    elif verdict_of(checks, observation) is Verdict.FAIL:
        diagnosis = diagnose(observation.checks, exercise, theirs, told)
    return present(exercise, observation, stubs, checks, diagnosis, told)


def runner_entry(exercise):
    """What the runner needs of an exercise on the Value class: its checks and starter code."""
    return {
        "design": exercise.design,
        "kind": exercise.kind,
        "ops": list(exercise.ops),
        "draws": list(exercise.draws),  # an engine tab's: runner/engine.py
        "train": dict(exercise.train) or None,
        "stubs": exercise.stubs,
        "checks": [
            {
                "build": c.build,
                "leaves": c.leaves,
                "grad": c.grad,
                "output": c.output,
                "names": list(c.names),
            }
            for c in exercise.checks
        ],
    }


def op_tabs(catalog, design):
    """The op tabs of `design`, in tab order."""
    return [e for e in catalog.values() if e.kind == "op" and e.design == design]


def designs(catalog):
    """Each design of `catalog` as the runner builds its class: segments, with the reference
    code of the ops its op tabs define."""
    found = {}
    for name in dict.fromkeys(exercise.design for exercise in catalog.values()):
        references = {op: "" for op in labels(name)}
        for tab in op_tabs(catalog, name):
            references |= tab.solutions
        found[name] = {
            "segments": segments(name),
            "labels": labels(name),
            "children": DESIGNS[name].children,
            "expression": DESIGNS[name].expression,
            "references": references,
        }
    return found


def trained_ops(catalog, design, uses):
    """For each op of `uses`, what a widget needs to read the learner's code for it and whether
    it passed: its tab's design, exercise id, version, label and starter code."""
    found = []
    for op in uses:
        exercise = next(e for e in op_tabs(catalog, design) if e.ops == (op,))
        found.append(
            {
                "op": op,
                "design": design,
                "label": exercise.label,
                "exercise": exercise.id,
                "version": exercise.version,
                "stub": exercise.stubs[op],
            }
        )
    return found


def _scope(exercise, catalog):
    """The names each op's code can use in its method of the Value class."""
    return {"scope": {op: scope(exercise.design, op) for op in exercise.ops}}


def _nudge(exercise, catalog):
    """An op tab's nudge tool too, from its first check (runner/nudge.py): the build, its
    inputs, and the exponent of a power, which the learner may change too."""
    from runner.nudge import exponent, with_exponent  # the site's, not the judge's

    check = exercise.checks[0]
    found = {"build": check.build, "inputs": dict(check.leaves), "exponent": exponent(check.build)}
    if found["exponent"] is not None:
        found["build"] = with_exponent(check.build, "n")
    return _scope(exercise, catalog) | {"nudge": found}


OP = Kind(
    name="op",
    keys=frozenset({"kind", "op", "design", *TEXTS, "worked", "example"}),
    required=("kind", "op", "prompt", "checks"),
    spec=lambda path, spec: ops_spec(path, spec, [spec["op"]]),
    make=slot_exercise,
    judge=judge_values,
    runner=runner_entry,
    widget=_nudge,
    writes_op=True,
    op_tab=True,
)
GRAPH = Kind(
    name="graph",
    keys=frozenset({"kind", "ops", "design", *TEXTS}),
    required=("kind", "ops", "label", "prompt", "checks"),
    spec=lambda path, spec: ops_spec(path, spec, spec["ops"]),
    make=slot_exercise,
    judge=judge_values,
    runner=runner_entry,
    widget=_scope,
    needs_op_tabs=True,
)
