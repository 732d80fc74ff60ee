"""The judge's half of grading: each kind of exercise judges its own (grader/kinds/registry.py).
For the op and graph kinds (grader/kinds/op.py) that is three steps: the runner's report of the
learner's run (runner/observe.py) is decoded (grader/observation.py), diagnosed against the
answer key (grader/diagnosis/diagnose.py) and presented as the result the learner reads
(grader/present.py).

The judge never runs learner code: the report is untrusted data, and anything in it that no
run could have sent makes the run unreadable, never a pass.
"""

import json

from .exercises import catalog
from .kinds.registry import KINDS
from .observation import parse


def judge_json(exercise_id, bodies_json, observation_json, told_json="[]"):
    """`judge` for the browser: JSON in, JSON out (no NaN: JSON has none)."""
    bodies = json.loads(bodies_json)
    bodies = bodies if isinstance(bodies, dict) else {}
    result = judge(exercise_id, bodies, parse(observation_json), told=json.loads(told_json))
    return json.dumps(result.to_dict(), allow_nan=False)


def judge(exercise_id, bodies, observation, exercises=None, told=()):
    """The Result of the learner's `bodies` on an exercise, given what their run did, in the
    words of the learner's rung: `told` lists the ops whose rule may be said (none by default:
    grader/disclosure.py). Each kind judges its own (grader/kinds/)."""
    exercises = exercises or catalog()
    exercise = exercises[exercise_id]
    return KINDS[exercise.kind].judge(exercise, bodies, observation, exercises, told)
