"""Turning an exception into a message about the learner's own lines.

Runs where learner code ran (runner/observe.py): an exception's text and attributes are the
learner's to make, so every one of them is read defensively.
"""

import builtins
import re
import traceback

from .assembly import FILENAME, lines
from .sandbox import reaches_javascript

MAX_TEXT = 2000


class Slots:
    """Where each slot's body sits in the assembled source, to map lines back to the learner's."""

    def __init__(self, starts, bodies, labels):
        self.starts, self.bodies, self.labels = starts, bodies, labels

    def length(self, slot):
        return max(len(lines(self.bodies[slot].rstrip())), 1)

    def locate(self, line):
        """`(slot, line within the slot)` for a line of the assembled source, or `(None, line)`."""
        before = [slot for slot, start in self.starts.items() if start <= line]
        if not before:
            return None, line
        slot = max(before, key=self.starts.get)
        within = line - self.starts[slot] + 1
        return (slot, within) if within <= self.length(slot) else (None, line)

    def source_line(self, slot, line):
        """The learner's line as they wrote it: its indentation kept, which may be the error."""
        found = lines(self.bodies[slot])
        return found[line - 1].rstrip()[:MAX_TEXT] if 0 < line <= len(found) else ""


def describe_syntax_error(error, slots):
    """A SyntaxError inside the assembled class belongs to the slot it falls in or ends after,
    or to the slot right after its line: a bracket the learner left open closes the class's own
    around their tuple, so Python reports the class's opening bracket as never closed."""
    lineno = error.lineno if isinstance(error.lineno, int) else 0
    if lineno + 1 in slots.starts.values():
        slot = next(slot for slot, start in slots.starts.items() if start == lineno + 1)
        lineno += slots.length(slot)
    before = [slot for slot, start in slots.starts.items() if start <= lineno]
    slot = max(before, key=slots.starts.get) if before else None
    line = min(lineno - slots.starts[slot] + 1, slots.length(slot)) if slot else lineno
    return _error(error, _their_lines(message_of(error.msg), slot, slots), slot, line, slots)


def _their_lines(message, slot, slots):
    """Python's message with the lines it names counted as the learner counts them ("expected
    an indented block after 'if' statement on line 76" is their line 1)."""

    def theirs(found):
        where, within = slots.locate(int(found.group(1)))
        return f"line {within}" if where == slot and where else found.group()

    return re.sub(r"\bline (\d+)", theirs, message)


def describe_exception(error, slots):
    """An exception raised while the learner's code ran, at its innermost line of theirs."""
    try:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == FILENAME]
    except Exception:  # noqa: BLE001 - a traceback of the learner's making
        frames = []
    located = [slots.locate(frame.lineno) for frame in frames]
    theirs = [place for place in located if place[0]]
    slot, line = theirs[-1] if theirs else (None, located[-1][1] if located else None)
    name = _attribute(error, "name")
    detail = message_of(error)
    if isinstance(error, ImportError) and reaches_javascript(name):
        detail = f"`{name}` is not available here: exercise code runs away from the page"
    described = _error(error, detail, slot, line, slots)
    described["name"] = name
    described["builtin"] = _builtin_name(_attribute(error, "obj", str_only=False))
    return described


def _attribute(error, name, str_only=True):
    try:
        value = getattr(error, name, None)
    except Exception:  # noqa: BLE001
        return None
    return value if not str_only or (type(value) is str and len(value) <= 100) else None


def _builtin_name(obj):
    """The name under which `obj` is one of Python's builtins (`sum`, `pow`), else None."""
    if obj is None:
        return None
    for name, value in vars(builtins).items():
        if value is obj and not name.startswith("_"):
            return name
    return None


def message_of(error):
    """`str(error)`, capped, or a word that it could not be shown (learner code wrote it)."""
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - an exception whose __str__ raises
        return "(its message could not be shown)"
    return text[:MAX_TEXT] if type(text) is str else ""


def _kind(error):
    return type.__dict__["__name__"].__get__(type(error))[:100]


def _error(error, detail, slot, line, slots):
    kind = _kind(error)
    label = slots.labels[slot] if slot else None
    if slot:
        where = f"line {line} of your {label} code"
        source = slots.source_line(slot, line)
    else:
        where = f"line {line} of the Value class" if line else "the grader's own code"
        source = ""
    summary = f"{kind} on {where}" + (f": {detail}" if detail else "")
    return {
        "type": kind,
        "message": detail,
        "slot": slot,
        "label": label,
        "line": line,
        "source_line": source,
        "summary": summary,
        "text": summary + (f"\n    {source}" if source else ""),
    }
