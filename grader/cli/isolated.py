"""Grading with the learner's code in a process of its own, under a time limit (CPython).

The maintainers' table grades every answer this way, as the browser does in a fresh
interpreter per run: no answer can change another's verdict, end the table early (a
`sys.exit` or `os._exit` in a closure), or run forever. The child process runs `runner/` only,
handed the runner's data: it never imports the grader.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from ..judge import judge
from ..runner_data import runner_data

TIME_LIMIT = 20  # seconds: far more than any answer needs, on the slowest machine


class RunFailed(RuntimeError):
    """The learner's process ended without reporting: the message says how."""


def observe_isolated(exercise_id, bodies, known, time_limit=TIME_LIMIT):
    """`runner.observe` in a child process, `known` the runner's data; raises RunFailed when
    the process cannot report."""
    request = {"exercise": exercise_id, "bodies": bodies, "data": known}
    return json.loads(in_child("runner.observe", request, time_limit))


def in_child(module, request, time_limit=TIME_LIMIT):
    """The text `module`'s main() writes, run in a child process (as a module of its package,
    as the browser's runner imports it) and handed `request` with the path to write to; raises
    RunFailed when the process cannot report."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "answer.json"
        try:
            done = subprocess.run(
                [sys.executable, "-c", f"from {module} import main; main()"],
                input=json.dumps({**request, "out": str(out)}),
                capture_output=True,
                text=True,
                timeout=time_limit,
                cwd=Path(__file__).resolve().parents[2],
            )
        except subprocess.TimeoutExpired as error:
            raise RunFailed(f"still running after {time_limit} s") from error
        if not out.exists():
            raise RunFailed(f"the process ended (status {done.returncode}) before it reported")
        return out.read_text(encoding="utf-8")


def grade_isolated(exercise_id, bodies, exercises, known=None, told=()):
    """The result of `bodies`, observed in a child process and judged here: a dict. `known` is
    runner_data(exercises), when the caller has it already; `told`, the ops whose rule its
    words may say."""
    return grade_isolated_sides(exercise_id, bodies, exercises, known, [told])[0]


def grade_isolated_sides(exercise_id, bodies, exercises, known=None, sides=((),)):
    """The results of one isolated run of `bodies`, judged once for each `told` of `sides`."""
    try:
        observation = observe_isolated(exercise_id, bodies, known or runner_data(exercises))
    except RunFailed as error:
        failed = {
            "exercise": exercise_id,
            "verdict": "error",
            "summary": str(error),
            "diagnoses": [],
            "checks": [],
        }
        return [failed for _ in sides]
    return [judge(exercise_id, bodies, observation, exercises, told).to_dict() for told in sides]
