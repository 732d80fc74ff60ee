"""Learners' handed-in work files graded, whatever verdicts the files claim (grader/cli/ is
the command; grader/cli/gradebook.py writes what comes out).

A hand-in is untrusted code on the instructor's machine. Each of its runs happens where the
browser runs it, in the runner's half under Pyodide, in a worker of the hand-in's own in a
Node process that can read nothing but Pyodide and write nothing, start no process and reach
no network, in a Python whose memory is put back after every run (grader/cli/sealed.py,
runner/node.mjs).
The judge's half reads each run's report here, as untrusted data, as it does in the browser.
"""

import json
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from ..handin import HandInError, read_handin
from ..judge import judge
from .sealed import RunFailed, SealedRunner

# what a run that gave no report tells the learner, by why it gave none
SAID = {
    "time": "Your code was still running after {limit}, the time limit. A loop that "
    "never ends does this, or far more work than the test needs.",
    "memory": "Your code used more memory than grading allows, and its run was ended.",
    "refused": "Your code reached outside Python (a process, a file or the network), which "
    "grading refuses: the run was ended.",
    "crashed": "Python crashed during your run ({why}), so there is no result to show.",
}


class TabVerdict(StrEnum):
    """A tab's verdict: the judge's (grader/result.py's Verdict), or why its run gave no report
    (grader/cli/sealed.py's RunFailed); written as its value in every gradebook."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    TIME = "time"
    MEMORY = "memory"
    REFUSED = "refused"
    CRASHED = "crashed"


@dataclass(frozen=True)
class Tab:
    """One exercise of one hand-in, as graded: what the learner would read."""

    verdict: TabVerdict  # given as text, kept as the enum
    summary: str
    diagnosis: str = ""
    diagnoses: tuple = ()
    rows: tuple = ()  # (value, got, passed, why) of each checked value

    def __post_init__(self):
        object.__setattr__(self, "verdict", TabVerdict(self.verdict))


@dataclass
class Graded:
    """One hand-in: who, from which file, and each attempted tab's grade."""

    file: str
    learner: str
    problem: str = ""  # why the file cannot be graded, when it cannot
    notes: list = field(default_factory=list)
    tabs: dict = field(default_factory=dict)  # exercise id -> Tab


def files_in(paths):
    """Each file named, and every `.json` file below each folder named, sorted."""
    found = []
    for path in map(Path, paths):
        found += sorted(path.rglob("*.json")) if path.is_dir() else [path]
    return found


def shard(files, part, parts):
    """The `part`-th (from 1) of `parts` shares of `files`: every file in exactly one share."""
    return files[part - 1 :: parts]


class SameCode:
    """Each Tab judged from a run's report, by the code that earned it, shared by a regrade's
    jobs: every run meets the same fresh Python (grader/cli/sealed.py), so the same code in another
    hand-in is the same run, run and judged once. A run that gave no report is never kept."""

    def __init__(self):
        self.tabs = {}
        self.again = 0  # tabs graded by code already run
        self.lock = threading.Lock()

    def tab(self, exercise, bodies, exercises, runner):
        """grade_tab's Tab, or the one the same code earned before."""
        key = (exercise.id, json.dumps(bodies, sort_keys=True))
        if key in self.tabs:
            with self.lock:
                self.again += 1
            return self.tabs[key]
        tab = grade_tab(exercise, bodies, exercises, runner)
        if tab.verdict in ("pass", "fail", "error"):
            self.tabs[key] = tab
        return tab


def regrade_file(path, exercises, runner, course, same=None):
    """The Graded hand-in at `path`, each attempted tab run by `runner` (a SealedRunner) in a
    worker of the hand-in's own, ended with it; `same` (a SameCode), where a tab's code has run
    before."""
    same = same or SameCode()
    graded = Graded(str(path), Path(path).stem)
    try:
        handin = read_handin(Path(path).read_bytes())
    except (OSError, HandInError) as error:
        graded.problem = str(error) if isinstance(error, HandInError) else error.strerror
        return graded
    graded.learner = handin.learner or graded.learner
    runner.fresh()
    for exercise in exercises.values():
        bodies, attempted = handin.tab(exercise)
        if not attempted:
            continue
        graded.tabs[exercise.id] = same.tab(exercise, bodies, exercises, runner)
        if not handin.written_for(exercise, course):
            said = "was saved from another version of that exercise: graded against this one"
            graded.notes.append(f"{exercise.id} {said}")
    graded.notes += [
        f"{name} claimed {claim}"
        for name, claim in sorted(handin.claimed.items())
        if claim == "pass" and getattr(graded.tabs.get(name), "verdict", "-") != "pass"
    ]
    return graded


def grade_tab(exercise, bodies, exercises, runner):
    """The Tab of one exercise's code, run sealed and judged here."""
    try:
        observation = runner.run(runner.harness.request(exercise.id, bodies))
    except RunFailed as failed:
        seconds = runner.harness.time_limit
        limit = f"{seconds:g} second{'' if seconds == 1 else 's'}"
        said = SAID[failed.reason].format(limit=limit, why=failed)
        return Tab(failed.reason, said, diagnoses=(str(failed),))
    try:
        report = json.loads(observation)
    except ValueError:
        report = None
    result = judge(exercise.id, bodies, report, exercises)
    rows = tuple((row.value, row.got_text, row.passed, row.why) for row in result.rows)
    return Tab(result.verdict, result.summary, result.diagnosis, tuple(result.diagnoses), rows)


def regrade_all(files, exercises, harness, course, jobs, same):
    """Each file's Graded, as soon as it is graded, `jobs` at a time: each job a sealed process,
    each hand-in a worker of its own in it; `same` (a SameCode) is shared by the jobs."""
    local = threading.local()
    runners = []

    def graded(path):
        if not hasattr(local, "runner"):
            local.runner = SealedRunner(harness)
            runners.append(local.runner)  # list.append is atomic: no lock needed
        return regrade_file(path, exercises, local.runner, course, same)

    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for done in as_completed([pool.submit(graded, path) for path in files]):
                yield done.result()
    finally:
        for runner in runners:
            runner.close()


def header(exercises):
    """The table's first line: each exercise, then the learner."""
    return " ".join(f"{name:{max(len(name), 7)}}" for name in exercises) + "  learner"


def table_row(graded, exercises):
    """One hand-in's line of the table: each tab's verdict, then its learner, whole."""
    cells = [
        f"{getattr(graded.tabs.get(name), 'verdict', '-'):{max(len(name), 7)}}"
        for name in exercises
    ]
    return " ".join(cells) + f"  {graded.learner}"


def said_below(graded):
    """The lines about a hand-in that follow the table: why it cannot be graded, its notes."""
    if graded.problem:
        return [f"{graded.file}: cannot be graded: {graded.problem}"]
    return [f"{graded.file}: {note}" for note in graded.notes]
