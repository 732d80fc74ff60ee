"""The judge's half of grading, in three steps: the runner's report of the learner's run
(runner/observe.py) is decoded (grader/observation.py), diagnosed against the answer key
(grader/diagnose.py) and presented as the result the learner reads (grader/present.py).

The judge never runs learner code: the report is untrusted data, and anything in it that no
run could have sent makes the run unreadable, never a pass.
"""

import json

from runner.assembly import is_stub

from .advice import values_used
from .checker_judge import judge_checker
from .diagnose import diagnose, diagnose_error
from .disclosure import told_ops
from .exercises import catalog
from .observation import Unreadable, decode_observation, parse
from .present import checks_of, present, unreadable, verdict_of
from .result import Verdict


def judge_json(exercise_id, bodies_json, observation_json, told_json="[]"):
    """`judge` for the browser: JSON in, JSON out (no NaN: JSON has none)."""
    bodies = json.loads(bodies_json)
    bodies = bodies if isinstance(bodies, dict) else {}
    result = judge(exercise_id, bodies, parse(observation_json), told=json.loads(told_json))
    return json.dumps(result.to_dict(), allow_nan=False)


def judge(exercise_id, bodies, observation, exercises=None, told=()):
    """The Result of the learner's `bodies` on an exercise, given what their run did, in the
    words of the learner's rung: `told` lists the ops whose rule may be said (none by default:
    grader/disclosure.py)."""
    exercise = (exercises or catalog())[exercise_id]
    if exercise.kind == "engine":  # a whole engine: numbers and where to measure, on any rung
        from .engine import judge_engine

        return judge_engine(exercise, observation, exercises)
    told = told_ops(exercise, told)
    theirs = {op: bodies.get(op) for op in exercise.ops}
    theirs = {op: b if isinstance(b, str) else exercise.stubs[op] for op, b in theirs.items()}
    stubs = [op for op in exercise.ops if is_stub(theirs[op], exercise.stubs[op])]
    if exercise.kind == "checker":  # the learner's gradient checker, not a Value class
        return judge_checker(exercise, observation, stubs, told)
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
