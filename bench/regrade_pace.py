"""`python bench/regrade_pace.py [N] [--jobs J] [--unique]`: N generated hand-ins (default 1,000:
right, wrong and starter code in every tab, a mix as a class hands them in) regraded with
`python -m grader regrade --jobs J`; prints the time, files a minute, CPU-seconds a file, the
peak memory of every process at once and what 10,000 files would take at that pace. Figures,
not assertions (BENCHMARK.md)."""

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.exercises import catalog  # noqa: E402
from grader.handin import code_key, course_id  # noqa: E402


def hand_ins(count, seed=1, unique=False):
    """`count` work files' texts: each op exercise right, wrong (a known mistake) or untouched;
    `unique`: every written tab's code a learner's own (a comment naming them ends it), as if
    no two learners wrote the same bytes, so that no tab is graded by another's run."""
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
        if unique:
            code = {key: f"{body}\n# learner {number}" for key, body in code.items()}
        work = {"format": "micrograd-work", "version": 1, "course": course, "saved": "now"}
        yield work | {"learner": f"Learner {number:05d}", "code": code, "tabs": {}}


def main():
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("count", nargs="?", type=int, default=1000)
    options.add_argument("--jobs", type=int, default=2)
    options.add_argument(
        "--unique", action="store_true", help="no two learners' tabs hold the same code"
    )
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for number, work in enumerate(hand_ins(args.count, unique=args.unique)):
            (Path(folder) / f"{number:05d}.json").write_text(json.dumps(work))
        command = [sys.executable, "-m", "grader", "regrade", folder, "--jobs", str(args.jobs)]
        command += ["--csv", str(Path(folder) / "grades.csv")]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        regrade = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        peak = Peak(regrade.pid)
        out, said = regrade.communicate()
        seconds = time.monotonic() - started
        peak.stop()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    runs = sum(len(re.findall(r"\b(?:pass|fail|error)\b", line)) for line in out.splitlines()[1:])
    per_file = seconds / args.count
    again = re.search(r"; (\d+) tabs held code already run", said)
    ran = runs - int(again[1]) if again else runs
    print(
        f"{args.count:,} hand-ins, --jobs {args.jobs}: {seconds:,.0f} s, "
        f"{args.count / seconds * 60:,.0f} files a minute ({runs:,} tabs judged, {ran:,} of them "
        f"run: the others held code already run; exit status {regrade.returncode})"
    )
    print(f"CPU: {cpu / args.count:.2f} s a file (every process: the grader, Node, its workers)")
    print(f"Peak memory: {peak.most / 1e6:,.0f} MB (the grader and every Node process at once)")
    print(f"10,000 hand-ins at this pace: {per_file * 10_000 / 60:,.0f} min on this machine")


class Peak:
    """The most memory a process and its descendants held at once, sampled every 0.2 s."""

    def __init__(self, pid):
        self.pid, self.most, self.done = pid, 0, threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self):
        while not self.done.wait(0.2):
            self.most = max(self.most, sum(map(resident, tree(self.pid))))

    def stop(self):
        self.done.set()


def tree(pid):
    """`pid` and every process below it (Linux's /proc)."""
    found = [pid]
    for process in found:
        try:
            children = Path(f"/proc/{process}/task/{process}/children").read_text().split()
        except OSError:
            continue
        found += map(int, children)
    return found


def resident(pid):
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * 4096
    except (OSError, IndexError):
        return 0


if __name__ == "__main__":
    main()
