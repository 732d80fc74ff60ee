"""What the build holds every exercise to, beyond what grader/exercises.py reads: its reference
solution passes its own checks (it ships in "Show solution" and trains the training pages), and
its words lost no backslash to TOML (course/escapes.py)."""

from grader import grade
from grader.kinds.registry import KINDS

from .escapes import lost_escape_in


class ExerciseCheckError(ValueError):
    """An exercise the course must not ship; the message names its file and the fix."""


def check_exercises(catalog):
    """Raise ExerciseCheckError for the first exercise of `catalog` that fails a check."""
    for exercise in catalog.values():
        _check_words(exercise)
    results = {
        exercise.id: grade(exercise.id, exercise.solutions, catalog)
        for exercise in catalog.values()
    }
    failed = [catalog[name] for name, result in results.items() if result["verdict"] != "pass"]
    if failed:
        # one wrong reference fails every exercise whose checks use its op: name the exercise
        # whose own op the grader blames, if one is
        blamed = [e for e in failed if KINDS[e.kind].op_tab and _blames(results[e.id], e.ops[0])]
        exercise = (blamed or failed)[0]
        raise ExerciseCheckError(_refusal(exercise, results[exercise.id]))


def _check_words(exercise):
    words = [("prompt", exercise.prompt), ("why", exercise.why)]
    words += [(f"hint {i}", hint) for i, hint in enumerate(exercise.hints, 1)]
    for what, text in words:
        problem = lost_escape_in(text)
        if problem:
            raise ExerciseCheckError(f"exercises/{exercise.id}/exercise.toml: {what}: {problem}")


def _blames(result, op):
    return any(culprit["op"] == op for culprit in result.get("culprits", []))


def _refusal(exercise, result):
    if KINDS[exercise.kind].writes_op:  # an op's, or a checker's: its own solution.py
        where, fix = f"exercises/{exercise.id}/.meta/solution.py", "fix the solution"
    elif KINDS[exercise.kind].solution_from:  # an engine's: the course's, its bug left out
        where = f"exercises/{exercise.id}/exercise.toml"
        fix = f"fix {KINDS[exercise.kind].solution_from} or these checks"
    else:  # a graph's: the op exercises' solutions, run on its checks
        where = f"exercises/{exercise.id}/exercise.toml"
        fix = "fix the op exercises' solutions (each passes its own tab) or these checks"
    return (
        f"{where}: the reference solution {_failure(result)}; {fix} "
        '(learners see it under "Show solution", and the training pages train with it)'
    )


def _failure(result):
    """What went wrong, in one line: the first wrong gradient, or the error."""
    for check in result.get("checks", []):
        for row in check.get("rows", []):
            if not row["passed"]:
                return (
                    f"fails its own checks: for {check['built']} with {check['given']}, "
                    f"{row['value']} is {row['got_text']} where {row['expected_text']} is right"
                )
    return f"does not pass: {' '.join(result['summary'].split())}"
