"""A learner's work, as "Download my work" saves it (widget/src/work/format.js writes the same
format; HOSTING.md documents it), decoded once from an untrusted file.

    {"format": "micrograd-work", "version": 1,
     "course": "3f2a9c0b1d4e",            # course_id(): which exercises the work is for
     "exercises": {"mul": "a1b2c3d4e5f6"},   # each exercise's version (course_id's parts)
     "saved": "2026-11-24T09:30:00.000Z",
     "learner": "Ada Lovelace, s1234567",  # what the learner typed, if anything
     "code": {"mul": "self.grad += ...",   # by tab's code key: "mul", "local_grads/mul"
              "local_grads/mul": "(other.data, self.data)"},
     "tabs": {"mul": {"verdict": "pass", "at": "2026-11-24T09:29:58.000Z"}}}   # claims only

A verdict in the file is only what the learner's browser said: regrading ignores it.
"""

import hashlib
import json
from dataclasses import dataclass, field

from runner.assembly import bodies as door
from runner.assembly import is_stub

from .kinds.registry import kind_of

FORMAT = "micrograd-work"
VERSION = 1
MAX_BYTES = 1_000_000  # far more than the code of every tab
MAX_CODE = 100_000  # characters of one tab's code
MAX_LEARNER = 200  # characters of a name or ID


class HandInError(ValueError):
    """A file that is not a learner's work this grader can read: the message says why."""


@dataclass(frozen=True)
class HandIn:
    course: str
    saved: str
    code: dict  # code key -> the learner's code
    claimed: dict  # exercise id -> the verdict the learner's browser showed
    learner: str = ""  # the name or ID the learner gave, as they gave it
    exercises: dict = field(default_factory=dict)  # exercise id -> its version, when saved

    def written_for(self, exercise, course):
        """Whether this work was saved from a course whose `exercise` was as it is now: by the
        exercise's own version where the file names them, else by the whole course's."""
        if self.exercises:
            return self.exercises.get(exercise.id) == exercise.version
        return self.course == course

    def tab(self, exercise):
        """`(bodies, attempted)`: the code this work holds for each op of `exercise`, through
        the one door for the learner's code (none saved: the starter code), and whether any of
        it is other than the starter code."""
        saved = {op: self.code.get(exercise_code_key(exercise, op)) for op in exercise.ops}
        bodies = door(saved, exercise.stubs)
        return bodies, not all(is_stub(bodies[op], exercise.stubs[op]) for op in exercise.ops)


def course_id(exercises):
    """Which exercises a course has, as they are defined: a work file names the course it came
    from, so that a file from another course (or a changed one) is told apart."""
    versions = sorted(f"{exercise.id}:{exercise.version}" for exercise in exercises.values())
    return hashlib.sha256("\n".join(versions).encode()).hexdigest()[:12]


def code_key(design, op):
    """The key of an op's code in a design (widget/src/exercise/model.js `codeKey`)."""
    return op if design == "closures" else f"{design}/{op}"


def exercise_code_key(exercise, op):
    """The key of an exercise's code for `op`: an engine tab's whole engine has a key of its own
    (widget/src/exercise/model.js `exerciseCodeKey`), every other tab its op's."""
    own_key = kind_of(exercise).own_key
    return own_key(exercise) if own_key else code_key(exercise.design, op)


def read_handin(raw):
    """The HandIn in `raw` (bytes); raises HandInError for anything else."""
    if len(raw) > MAX_BYTES:
        raise HandInError(f"larger than {MAX_BYTES // 1000} KB: not a work file")
    try:
        found = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HandInError("not JSON: not a work file") from None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise HandInError('not a micrograd work file (no "format": "micrograd-work")')
    if found.get("version") != VERSION:
        raise HandInError(
            f"work file version {found.get('version')!r}: this grader reads {VERSION}"
        )
    code, tabs = found.get("code"), found.get("tabs", {})
    if not isinstance(code, dict) or not isinstance(tabs, dict):
        raise HandInError("its code is not a list of tabs")
    for key, text in code.items():
        if not isinstance(text, str) or len(text) > MAX_CODE:
            raise HandInError(f"the code of {str(key)[:40]!r} is not text of a tab's size")
    claimed = {
        str(name)[:40]: tab["verdict"]
        for name, tab in tabs.items()
        if isinstance(tab, dict) and isinstance(tab.get("verdict"), str)
    }
    course = found.get("course")
    saved = found.get("saved")
    versions = found.get("exercises")
    versions = {
        str(name)[:40]: value[:40]
        for name, value in (versions.items() if isinstance(versions, dict) else ())
        if isinstance(value, str)
    }
    return HandIn(
        str(course)[:40] if course else "",
        str(saved)[:40] if saved else "",
        code,
        claimed,
        learner(found.get("learner")),
        versions,
    )


def learner(given):
    """The learner's name or ID as one line of printable text ("" when there is none)."""
    if not isinstance(given, str):
        return ""
    return " ".join("".join(c if c.isprintable() else " " for c in given).split())[:MAX_LEARNER]
