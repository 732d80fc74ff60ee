"""The grader of micrograd, in the browser: pure standard library, for CPython and Pyodide.

Grading has two halves that never share an interpreter in the browser: `runner.observe` runs
the learner's code and reports what it did; `grader.judge` holds that against the answer key.
"""

import json


def grade(exercise_id, bodies, exercises=None, told=()):
    """Both halves in this interpreter, the observation passed as JSON as in the browser:
    the result as a dict, in the words of the rung where `told` ops' rules are said. For
    trusted code only (tests, the lessons): grader/cli/isolated.py runs
    the learner's half in a process of its own."""
    from runner.observe import observe

    from .exercises import load_catalog
    from .judge import judge
    from .runner_data import runner_data

    exercises = exercises or load_catalog()
    known = runner_data(exercises)
    observation = json.loads(json.dumps(observe(exercise_id, bodies, known)))
    return judge(exercise_id, bodies, observation, exercises, told).to_dict()
