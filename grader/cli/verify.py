"""`python -m grader verify FILE`: a certificate (a work file, "Make my certificate" or "Download
my work") checked as the verify page checks it (widget/src/record/verify.js): every exercise the
file holds code for, or claims, run sealed as a regrade runs it (grader/cli/regrade.py), and each
verdict its code earns held to what the file claims. The words are grader/verify_words.json's,
shared with the page; tests/verify_transcript.txt holds them.
"""

import json
from pathlib import Path

from .regrade import grade_tab

# shared with the page (widget/src/record/verify.js), beside the grader it ships with
WORDS = json.loads((Path(__file__).parent.parent / "verify_words.json").read_text(encoding="utf-8"))
EARNED = ("pass", "fail", "error")  # a run with no report (time, memory, ...) stops with an error


def identity(handin, course, exercises):
    """ "same", "version" or "other": the course the file was made for, against this one (by
    its id, else by whether the file names any exercise this course has)."""
    if handin.course == course:
        return "same"
    return "version" if set(handin.exercises) & set(exercises) else "other"


def to_verify(handin, exercises):
    """`[(exercise, bodies)]`: each exercise whose code the file holds (not the starter code)
    or whose pass it claims, in the course's order; missing code is the starter code."""
    found = []
    for exercise in exercises.values():
        bodies, attempted = handin.tab(exercise)
        if attempted or handin.claimed.get(exercise.id) == "pass":
            found.append((exercise, bodies))
    return found


def check(handin, exercises, runner, course):
    """The outcome of `handin`, each exercise run by `runner` (a SealedRunner, as a regrade's)."""
    runner.fresh()
    earned = {
        exercise.id: grade_tab(exercise, bodies, exercises, runner).verdict
        for exercise, bodies in to_verify(handin, exercises)
    }
    return outcome(handin, course, exercises, earned)


def outcome(handin, course, exercises, earned):
    """What to say, as the page builds it too: `earned` maps each verified exercise's id to the
    verdict its code earns now."""
    tabs = [
        {
            "id": name,
            "label": exercises[name].label,
            "verdict": verdict if verdict in EARNED else "error",
            "claimed": handin.claimed.get(name),
            "another": bool(handin.exercises) and not handin.written_for(exercises[name], course),
        }
        for name, verdict in earned.items()
    ]
    who = {"learner": handin.learner, "saved": handin.saved[:10]}  # the day
    return {**who, "course": identity(handin, course, exercises), "tabs": tabs}


def claims_more(tab):
    return tab["claimed"] == "pass" and tab["verdict"] != "pass"


def tab_text(tab):
    """One exercise's sentences."""
    said = [WORDS["earned"][tab["verdict"]]]
    if tab["another"]:
        said.append(WORDS["another_version"])
    if claims_more(tab):
        said.append(WORDS["claims_more"])
    return " ".join(said)


def head_text(found):
    """Who, when, and which course."""
    who = WORDS["who"] if found["learner"] else WORDS["nobody"]
    return [who.format(**found), WORDS["course"][found["course"]]]


def tail_text(found):
    """How many pass, and how many claims the code does not earn."""
    tabs = found["tabs"]
    if not tabs:
        return [WORDS["none"]]
    passed = sum(tab["verdict"] == "pass" for tab in tabs)
    over = sum(map(claims_more, tabs))
    claims = WORDS["over_none" if not over else "over_one" if over == 1 else "over_many"]
    return [WORDS["count"].format(passed=passed, count=len(tabs)), claims.format(over=over)]


def text(found):
    """The whole check, as the command prints it: a line per exercise between the head and
    the tail."""
    rows = [f"{tab['id']:<16} {tab['verdict']:<5}  {tab_text(tab)}" for tab in found["tabs"]]
    return "\n".join([*head_text(found), "", *rows, *([""] if rows else []), *tail_text(found)])
