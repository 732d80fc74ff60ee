"""A find-the-bug tab's planted bug, as the learner is told of it: how many lines are wrong or
missing (the tab's prompt says so, `{places}` in its text), and the fix as a diff, which the page
shows on request once every hint is out (widget/src/exercise/engine-panel.js).

Both come from the engine as shipped against its fix (grader/engine.py), never from words typed
by hand. The count compares lines without their indentation and leaves blank lines out: a
missing `if` is two lines missing, however the lines under it are then indented (an early
`return` would fix it without touching them). The diff is the fix as it is, indentation and all.
"""

import difflib
import re

from .kinds.base import ExerciseError

PLACEHOLDER = "{places}"
CONTEXT = 2  # unchanged lines shown around each place of the diff
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
DEF = re.compile(r"(\s*)(?:class|def) (\w+)")


def counts(shipped, fixed):
    """`{"wrong", "missing", "extra", "places"}`: lines of `shipped` that the fix changes, lines
    it lacks, lines it has that the fix drops, and the places where they are."""
    ours, right = _code_lines(shipped), _code_lines(fixed)
    found = dict.fromkeys(("wrong", "missing", "extra", "places"), 0)
    matcher = difflib.SequenceMatcher(None, ours, right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        found["places"] += 1
        found["wrong"] += min(i2 - i1, j2 - j1)
        found["missing"] += max(0, (j2 - j1) - (i2 - i1))
        found["extra"] += max(0, (i2 - i1) - (j2 - j1))
    return found


def _code_lines(text):
    return [line.strip() for line in text.splitlines() if line.strip()]


def words(shipped, fixed):
    """What the prompt says of the bug: "two lines are wrong", "one line is missing"..."""
    found = counts(shipped, fixed)
    parts = [
        _lines(found[key], said)
        for key, said in (("wrong", "wrong"), ("missing", "missing"), ("extra", "too many"))
        if found[key]
    ]
    if not parts:
        raise ExerciseError("the engine as shipped is its fix: there is no bug to tell of")
    text = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
    return text if found["places"] == 1 else f"{text}, in {_number(found['places'])} places"


def _lines(count, said):
    verb = "is" if count == 1 else "are"
    return f"{_number(count)} line{'' if count == 1 else 's'} {verb} {said}"


def _number(count):
    return NUMBERS[count] if count < len(NUMBERS) else str(count)


def prompt(text, shipped, fixed, where):
    """The tab's prompt with its `{places}` said; `where` names the file for the error of a
    prompt that leaves it out."""
    if PLACEHOLDER not in text:
        raise ExerciseError(
            f"{where}: an engine tab's prompt says how many lines its bug is with {PLACEHOLDER}"
        )
    return text.replace(PLACEHOLDER, words(shipped, fixed))


def hunks(shipped, fixed):
    """The fix as a diff, for the page: each place as `{"where", "lines"}`, `where` the class
    and functions it is in ("Value › backward"), `lines` `[mark, text]` pairs, the mark " " for
    a line unchanged around it, "-" for a line as shipped, "+" for the fix's."""
    ours, right = shipped.splitlines(), fixed.splitlines()
    matcher = difflib.SequenceMatcher(None, ours, right, autojunk=False)
    found = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        lines = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [[" ", line] for line in ours[i1:i2]]
                continue
            lines += [["-", line] for line in ours[i1:i2]]
            lines += [["+", line] for line in right[j1:j2]]
        first = next(i1 for tag, i1, *_ in group if tag != "equal")
        found.append({"where": " › ".join(_enclosing(ours, first)), "lines": _trimmed(lines)})
    return found


def _trimmed(lines):
    """The lines without the blank unchanged ones at either end."""
    while lines[0][0] == " " and not lines[0][1].strip():
        lines = lines[1:]
    while lines[-1][0] == " " and not lines[-1][1].strip():
        lines = lines[:-1]
    return lines


def _enclosing(lines, index):
    """The names of the classes and functions that hold line `index`, outermost first."""
    line = lines[min(index, len(lines) - 1)] if lines else ""
    names, depth = [], len(line) - len(line.lstrip())
    for line in reversed(lines[:index]):
        match = DEF.match(line)
        if not match or len(match[1]) >= depth:
            continue
        names.append(match[2])
        depth = len(match[1])
    return names[::-1]
