"""Turning an exception into a message about the learner's own lines."""

import traceback

from .sandbox import reaches_javascript
from .scaffold import FILENAME, SLOT_LABELS


class Slots:
    """Where each slot's body sits in the assembled source, to map lines back to the learner's."""

    def __init__(self, starts, bodies):
        self.starts, self.bodies = starts, bodies

    def locate(self, line):
        """`(slot, line within the slot)` for a line of the assembled source, or `(None, line)`."""
        before = [slot for slot, start in self.starts.items() if start <= line]
        if not before:
            return None, line
        slot = max(before, key=self.starts.get)
        length = max(len(self.bodies[slot].rstrip().splitlines()), 1)
        within = line - self.starts[slot] + 1
        return (slot, within) if within <= length else (None, line)

    def source_line(self, slot, line):
        lines = self.bodies[slot].splitlines()
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def describe_syntax_error(error, slots):
    """A SyntaxError inside the assembled class belongs to the slot it falls in or ends after."""
    before = [slot for slot, start in slots.starts.items() if start <= (error.lineno or 0)]
    slot = max(before, key=slots.starts.get) if before else None
    line = (error.lineno or 1) - slots.starts[slot] + 1 if slot else error.lineno
    if slot:
        line = min(line, max(len(slots.bodies[slot].rstrip().splitlines()), 1))
    return _error(error, error.msg, slot, line, slots)


def describe_exception(error, slots):
    """An exception raised while the learner's closures ran, at its innermost line of theirs."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == FILENAME]
    located = [slots.locate(frame.lineno) for frame in frames]
    theirs = [place for place in located if place[0]]
    slot, line = theirs[-1] if theirs else (None, located[-1][1] if located else None)
    detail = str(error)
    if isinstance(error, ImportError) and reaches_javascript(error.name):
        detail = f"`{error.name}` is not available here: exercise code runs away from the page"
    return _error(error, detail, slot, line, slots)


def _error(error, detail, slot, line, slots):
    kind = type(error).__name__
    if slot:
        where = f"line {line} of your {SLOT_LABELS[slot]} code"
        source = slots.source_line(slot, line)
    else:
        where = f"line {line} of the Value class" if line else "the grader's own code"
        source = ""
    summary = f"{kind} on {where}" + (f": {detail}" if detail else "")
    return {
        "type": kind,
        "message": detail,
        "slot": slot,
        "label": SLOT_LABELS.get(slot),
        "line": line,
        "source_line": source,
        "summary": summary,
        "text": summary + (f"\n    {source}" if source else ""),
    }
