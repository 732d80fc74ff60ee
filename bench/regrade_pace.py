"""`python bench/regrade_pace.py [N] [--jobs J]`: N generated hand-ins (default 1,000: right,
wrong and starter code in every tab, a mix as a class hands them in) regraded with
`python -m grader regrade --jobs J`; prints the time, the time per file and what 10,000 files
would take at that pace. Figures, not assertions (BENCHMARK.md)."""

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.exercises import catalog  # noqa: E402
from grader.handin import code_key, course_id  # noqa: E402


def hand_ins(count, seed=1):
    """`count` work files' texts: each op exercise right, wrong (a known mistake) or untouched."""
    exercises = catalog()
    course = course_id(exercises)
    pick = random.Random(seed)
    ops = [exercise for exercise in exercises.values() if exercise.kind == "op"]
    for number in range(count):
        code = {}
        for exercise in ops:
            choice = pick.random()
            answers = [answer.bodies for answer in exercise.known_wrong] or [exercise.stubs]
            bodies = exercise.solutions if choice < 0.6 else pick.choice(answers)
            if choice < 0.9:
                code |= {code_key(exercise.design, op): body for op, body in bodies.items()}
        work = {"format": "micrograd-work", "version": 1, "course": course, "saved": "now"}
        yield work | {"learner": f"Learner {number:05d}", "code": code, "tabs": {}}


def main():
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("count", nargs="?", type=int, default=1000)
    options.add_argument("--jobs", type=int, default=2)
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for number, work in enumerate(hand_ins(args.count)):
            (Path(folder) / f"{number:05d}.json").write_text(json.dumps(work))
        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "grader",
                "regrade",
                folder,
                "--jobs",
                str(args.jobs),
                "--csv",
                str(Path(folder) / "grades.csv"),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        seconds = time.monotonic() - started
    runs = sum(
        line.split().count("pass") + line.split().count("fail") + line.split().count("error")
        for line in done.stdout.splitlines()[1:]
    )
    per_file = seconds / args.count
    print(
        f"{args.count:,} hand-ins, --jobs {args.jobs}: {seconds:,.0f} s "
        f"({per_file * 1000:,.0f} ms a file, {runs:,} runs judged; exit status {done.returncode})"
    )
    print(f"10,000 hand-ins at this pace: {per_file * 10_000 / 60:,.0f} min on this machine")


if __name__ == "__main__":
    main()
