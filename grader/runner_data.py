"""What the runner (runner/) needs to know of the exercises, as plain data: each exercise's
checks and starter code, and each design's class as segments, with the reference code of its ops
(the class needs the ops an exercise does not ask for, and training may use them: they are the
solutions a learner can show anyway). No expected gradient is in it: the build writes it into
the runner's archive as `runner/data.json`, and the maintainers' runner is handed it."""

from .answer_key import answer
from .kinds.op import designs
from .kinds.registry import KINDS


def runner_data(catalog):
    exercises = {e.id: KINDS[e.kind].runner(e) for e in catalog.values()}
    return {"designs": designs(catalog), "exercises": exercises}


def run_data(known, exercise):
    """The part of `known` (runner_data's) that one run of `exercise` needs, for a sealed run of
    a hand-in: its own entry, and its design with the reference code of only the ops its checks
    use beside the learner's own, so that no run holds the answer to another exercise it does
    not need (an engine tab compares the learner's class with the whole reference class, so it
    keeps them all; a checker tab needs no class)."""
    entry = {exercise.id: known["exercises"][exercise.id]}
    references = KINDS[exercise.kind].references
    if references == "none":
        return {"designs": {}, "exercises": entry}
    design = known["designs"][exercise.design]
    if references == "used":
        used = ops_used(exercise) - set(exercise.ops)
        kept = {op: body if op in used else "" for op, body in design["references"].items()}
        design = design | {"references": kept}
    return {"designs": {exercise.design: design}, "exercises": entry}


def ops_used(exercise):
    """The ops whose nodes the exercise's checks build (the answer key's graphs)."""
    return {node.op.name for check in exercise.checks for node in answer(check)[0] if node.op}
