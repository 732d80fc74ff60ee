"""What the runner (runner/) needs to know of the exercises, as plain data: each exercise's
checks and starter code, and each design's class as segments, with the reference code of its ops
(the class needs the ops an exercise does not ask for, and training may use them: they are the
solutions a learner can show anyway). No expected gradient is in it: the build writes it into
the runner's archive as `runner/data.json`, and the maintainers' runner is handed it."""

from .answer_key import answer
from .scaffold import DESIGNS, labels, segments


def runner_data(catalog):
    designs = {}
    for name in dict.fromkeys(exercise.design for exercise in catalog.values()):
        references = {op: "" for op in labels(name)}
        for exercise in catalog.values():
            if exercise.design == name and exercise.kind == "op":
                references |= exercise.solutions
        designs[name] = {
            "segments": segments(name),
            "labels": labels(name),
            "children": DESIGNS[name].children,
            "expression": DESIGNS[name].expression,
            "references": references,
        }
    exercises = {exercise.id: _exercise(exercise) for exercise in catalog.values()}
    return {"designs": designs, "exercises": exercises}


def _exercise(exercise):
    if exercise.kind == "checker":  # runner/checker.py calls the learner's functions
        return {
            "design": exercise.design,
            "kind": exercise.kind,
            "label": exercise.label,
            "ops": list(exercise.ops),
            "stubs": exercise.stubs,
            "checks": [check.data() for check in exercise.checks],
        }
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


def run_data(known, exercise):
    """The part of `known` (runner_data's) that one run of `exercise` needs, for a sealed run of
    a hand-in: its own entry, and its design with the reference code of only the ops its checks
    use beside the learner's own, so that no run holds the answer to another exercise it does
    not need (an engine tab compares the learner's class with the whole reference class, so it
    keeps them all; a checker tab needs no class)."""
    entry = {exercise.id: known["exercises"][exercise.id]}
    if exercise.kind == "checker":
        return {"designs": {}, "exercises": entry}
    design = known["designs"][exercise.design]
    if exercise.kind != "engine":
        used = ops_used(exercise) - set(exercise.ops)
        kept = {op: body if op in used else "" for op, body in design["references"].items()}
        design = design | {"references": kept}
    return {"designs": {exercise.design: design}, "exercises": entry}


def ops_used(exercise):
    """The ops whose nodes the exercise's checks build (the answer key's graphs)."""
    return {node.op.name for check in exercise.checks for node in answer(check)[0] if node.op}
