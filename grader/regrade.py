"""`python -m grader regrade PATH... [--csv FILE]`: grades learners' handed-in work files (or
every `.json` in the folders given), whatever verdicts the files claim.

A hand-in is untrusted code on the instructor's machine. Each file's code runs where the
browser runs it, in the runner's half under Pyodide, in a Node process that can read nothing
but Pyodide and write nothing, start no process and reach no network (runner/node.mjs); each
run has a time limit, after which that process is ended and a fresh one takes the next run. The
judge's half reads each run's report here, as untrusted data, as it does in the browser.
"""

import csv
import json
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from runner.assembly import is_stub

from .exercises import load_catalog
from .handin import HandInError, code_key, course_id, read_handin
from .judge import judge
from .runner_data import runner_data

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "runner" / "node.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide"
RUN_LIMIT_S = 10  # one tab's run; the browser allows 5, a busy machine may need more
START_LIMIT_S = 60  # Pyodide's start
MAX_LINE = 8_000_000  # a report larger than this did not come from the runner


class RunFailed(RuntimeError):
    """A run that gave no report: "time" (its limit passed) or what ended its process."""


class SealedRunner:
    """The runner's half in a sealed Node process, restarted after a run that did not end."""

    def __init__(self, exercises):
        files = {
            str(path.relative_to(ROOT)): path.read_text()
            for path in sorted((ROOT / "runner").glob("*.py"))
        }
        self.setup = json.dumps({"files": files, "data": runner_data(exercises)})
        self.process = None
        self.command = None
        self.lines = None
        self.starting = False

    def run(self, exercise_id, bodies):
        """The runner's report of one run, as JSON text; raises RunFailed."""
        if self.process is None:
            self._start()
        self.process.stdin.write(json.dumps({"exercise": exercise_id, "bodies": bodies}) + "\n")
        self.process.stdin.flush()
        answer = self._answer(RUN_LIMIT_S)
        if "observation" in answer and isinstance(answer["observation"], str):
            return answer["observation"]
        raise RunFailed(str(answer.get("crashed", "no report"))[:200])

    def close(self):
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None

    def _start(self):
        if self.command is None:  # found once: a restart after a run's time limit reuses it
            node = shutil.which("node")
            if node is None or not PYODIDE.is_dir():
                raise SystemExit(
                    "regrade needs Node.js and the npm packages: run `make setup` first"
                )
            self.command = [node, *sealing_flags(node), str(HARNESS)]
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
        )
        self.lines = queue.Queue()
        self.starting = True  # its first answer waits for Pyodide to start too
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()
        self.process.stdin.write(self.setup + "\n")
        self.process.stdin.flush()

    @staticmethod
    def _read(process, lines):
        for line in iter(lambda: process.stdout.readline(MAX_LINE), ""):
            lines.put(line)
        lines.put(None)  # the process ended

    def _answer(self, limit):
        try:
            line = self.lines.get(timeout=limit + (START_LIMIT_S if self.starting else 0))
        except queue.Empty:
            self.close()
            raise RunFailed("time") from None
        if line is None or not line.endswith("\n"):
            code = self.process.poll()
            self.close()
            raise RunFailed(f"its Python ended (status {code})")
        self.starting = False
        try:
            return json.loads(line)
        except ValueError:
            self.close()
            raise RunFailed("its report was not JSON") from None


def sealing_flags(node):
    """Node's permission model: read Pyodide and the harness only; no code from strings."""
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    major = int(version.strip().lstrip("v").split(".")[0] or 0)
    permission = "--permission" if major >= 23 else "--experimental-permission"
    return [
        permission,
        f"--allow-fs-read={PYODIDE.resolve()}/*",
        f"--allow-fs-read={HARNESS}",
        "--disallow-code-generation-from-strings",
        "--no-warnings",
    ]


def files_in(paths):
    """Each file named, and every `.json` file below each folder named, sorted."""
    found = []
    for path in map(Path, paths):
        found += sorted(path.rglob("*.json")) if path.is_dir() else [path]
    return found


def regrade_file(path, exercises, runner, course):
    """`{"file", "learner", "problem", "note", "tabs": {exercise: (verdict, diagnoses)}}`."""
    row = {"file": str(path), "learner": path.stem, "problem": "", "note": "", "tabs": {}}
    try:
        handin = read_handin(path.read_bytes())
    except (OSError, HandInError) as error:
        row["problem"] = str(error) if isinstance(error, HandInError) else error.strerror
        return row
    if handin.course != course:
        row["note"] = "from another version of the course: graded against this one"
    for exercise in exercises.values():
        bodies = {op: handin.code.get(code_key(exercise.design, op)) for op in exercise.ops}
        bodies = {op: body or exercise.stubs[op] for op, body in bodies.items()}
        if all(is_stub(bodies[op], exercise.stubs[op]) for op in exercise.ops):
            continue  # not attempted
        row["tabs"][exercise.id] = grade_tab(exercise, bodies, exercises, runner)
    claims = [
        f"{name} claimed {claim}"
        for name, claim in sorted(handin.claimed.items())
        if claim == "pass" and row["tabs"].get(name, ("-",))[0] != "pass"
    ]
    row["note"] = "; ".join(filter(None, [row["note"], *claims]))
    return row


def grade_tab(exercise, bodies, exercises, runner):
    """`(verdict, diagnoses)` of one tab's code, run sealed and judged here."""
    try:
        observation = runner.run(exercise.id, bodies)
    except RunFailed as failed:
        return ("time" if str(failed) == "time" else "error"), [str(failed)]
    try:
        report = json.loads(observation)
    except ValueError:
        report = None
    result = judge(exercise.id, bodies, report, exercises)
    return result.verdict, result.diagnoses


def table(rows, exercises):
    """The table learner × tab, then each file's problem or note on a line of its own."""
    ids = list(exercises)
    width = max([7, *(len(row["learner"][:24]) for row in rows)])
    cell = {name: max(len(name), 5) for name in ids}
    lines = [f"{'learner':{width}}  " + " ".join(f"{name:{cell[name]}}" for name in ids)]
    for row in rows:
        if row["problem"]:
            continue
        cells = [f"{row['tabs'].get(name, ('-',))[0]:{cell[name]}}" for name in ids]
        lines.append(f"{row['learner'][:24]:{width}}  " + " ".join(cells))
    lines.append("")
    for row in rows:
        if row["problem"]:
            lines.append(f"{row['file']}: cannot be graded: {row['problem']}")
        elif row["note"]:
            lines.append(f"{row['file']}: {row['note']}")
    return "\n".join(lines).rstrip("\n")


def write_csv(rows, exercises, path):
    """One line per learner and tab, for a gradebook."""
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["learner", "file", "exercise", "verdict", "diagnoses", "note"])
        for row in rows:
            for name in exercises:
                verdict, keys = row["tabs"].get(name, ("-", []))
                if row["problem"]:
                    verdict, keys = "unreadable", [row["problem"]]
                writer.writerow(
                    [row["learner"], row["file"], name, verdict, " ".join(keys), row["note"]]
                )


def main(argv):
    args = list(argv)
    csv_path = None
    if "--csv" in args:
        at = args.index("--csv")
        csv_path = args[at + 1] if at + 1 < len(args) else None
        del args[at : at + 2]
    if not args or csv_path == "":
        print("usage: python -m grader regrade PATH... [--csv FILE]", file=sys.stderr)
        return 2
    exercises = load_catalog()
    runner = SealedRunner(exercises)
    course = course_id(exercises)
    try:
        rows = [regrade_file(path, exercises, runner, course) for path in files_in(args)]
    finally:
        runner.close()
    print(table(rows, exercises))
    if csv_path:
        write_csv(rows, exercises, csv_path)
        print(f"\nwrote {csv_path}")
    return 0
