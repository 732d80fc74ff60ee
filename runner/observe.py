"""The learner's code, run on every check of an exercise, and what it did, as plain data (an
observation) for the judge (grader/judge.py).

Nothing here knows the right gradients, and nothing it returns is trusted: in the browser
this runs in an interpreter used for one run and then thrown away, and the judge, which never
runs learner code, checks every field. What it knows of the exercises is `data` (see
grader/runner_data.py; in the browser, `data.json` beside this file). The observation, as JSON:

    {"checks": [                     # in the exercise's order, up to the one that failed
        {"nodes": [{"data": n, "grad": n}],   # topological order (runner/graph.py)
         "steps": [{"node": i, "depth": d, "start": [n], "grads": [[j, n, n]],
                    "data": [[j, n, n]], "writes": [[j, n, n]],
                    "local_grads": [n] or {"type": t}}],
         "complete": bool, "dropped": bool}],
     "error": null or runner/errors.py's description,
     "stdout": "...", "stdout_truncated": bool,
     "stdout_lines": int}  # the lines printed, all of them, where stdout keeps a beginning

Numbers `n` are encoded by runner/numbers.py. A step is one call of a node's `_backward`
(closures) or one node's chaining (local_grads): its node, how deeply it was nested in other
calls, every grad at its start, the grads and data it changed itself (before, after), and
each write to a `.grad` it made itself, in order (a `=` shows as a write that replaced).
"""

import json
from pathlib import Path

from .checker import observe_checker
from .value_class import data, observe_checks


def observe_json(exercise_id, bodies_json):
    """`observe` for the browser's runner: JSON in, JSON out."""
    bodies = json.loads(bodies_json)
    return json.dumps(observe(exercise_id, bodies if isinstance(bodies, dict) else {}))


def observe(exercise_id, bodies, known=None):
    """Run the learner's `bodies` ({op: source}) on every check of the exercise; `known` is
    what grader/runner_data.py gives (by default, data.json)."""
    known = data() if known is None else known
    run = RUNS.get(known["exercises"][exercise_id].get("kind"), _value_class)
    return run(exercise_id, bodies, known)


def _value_class(exercise_id, bodies, known):
    """op and graph tabs: the learner's ops in the design's Value class, on every check."""
    exercise = known["exercises"][exercise_id]
    return observe_checks(exercise, known["designs"][exercise["design"]], bodies)


def _checker(exercise_id, bodies, known):
    """The learner's gradient checker, not a Value class: runner/checker.py."""
    return observe_checker(known["exercises"][exercise_id], bodies)


def _engine(exercise_id, bodies, known):
    """A whole engine of the learner's: runner/engine.py (imported when a tab needs it)."""
    from .engine import observe_engine

    return observe_engine(exercise_id, bodies, known)


# each kind's run (grader/kinds/ lists the kinds); any other runs the Value class's checks
RUNS = {"checker": _checker, "engine": _engine}


def main():
    """`python -m runner.observe`: one run in a process of its own, for grader/cli/isolated.py.
    Reads `{"exercise", "bodies", "data", "out"}` as JSON on stdin and writes the observation
    to the file `out`."""
    import sys

    request = json.loads(sys.stdin.read())
    found = observe(request["exercise"], request["bodies"], request["data"])
    Path(request["out"]).write_text(json.dumps(found), encoding="utf-8")


if __name__ == "__main__":
    main()
