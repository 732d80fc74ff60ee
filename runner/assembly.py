"""The class the learner's code completes, put together from its segments: text, and slots
for the learner's code, each `{"text": ...}` or `{"slot": op, "indent": n}` (grader/scaffold.py
makes them). The page assembles the very same pieces (widget/src/shared/scaffold.js), with the
same two rules: how text splits into lines, and when code is still the starter code.
"""

import re

FILENAME = "<Value class>"
# Python's tokenizer ends a line at \r\n, \r or \n, and nowhere else (str.splitlines also
# breaks at \f, \x85, \u2028 and more, which may sit inside a learner's comment or string)
LINE_BREAK = re.compile(r"\r\n|\r|\n")
# the white space both Python and JavaScript agree on (each has its own idea of the rest)
BLANK = " \t\f\v\r\n"


def lines(text):
    """`text` split into lines the way Python's tokenizer splits them."""
    return LINE_BREAK.split(text)


def has_code(body):
    """True when `body` holds code: a line that is not blank, a comment or `pass`."""
    code = (line.strip(BLANK) for line in lines(body))
    return any(line and not line.startswith("#") and line != "pass" for line in code)


def bodies(raw, stubs):
    """The door for the learner's code, untrusted (JSON from the page or a work file): for each
    slot of `stubs` ({slot: starter code}), the text `raw` holds for it, or its starter code
    where `raw` holds none (missing, or not text). Text is theirs even when empty, as the page
    ran it; `is_stub` says whether they tried."""
    raw = raw if isinstance(raw, dict) else {}
    return {
        slot: raw[slot] if isinstance(raw.get(slot), str) else stub for slot, stub in stubs.items()
    }


def their_bodies(design, raw):
    """`{op: body}` of the learner's code (untrusted) that is text for an op of `design`: what
    they wrote, where the rest of the class is the reference (the fuzzer, the nudge tool, the
    trainers)."""
    raw = raw if isinstance(raw, dict) else {}
    return {op: b for op, b in raw.items() if op in design["labels"] and isinstance(b, str)}


def is_stub(body, stub):
    """True when the learner has not changed the starter code, or wrote no code at all."""
    return not has_code(body) or body.strip(BLANK) == stub.strip(BLANK)


def has_statement(body):
    """True when `body` holds a line that is not blank or a comment (`pass` counts)."""
    code = (line.strip(BLANK) for line in lines(body))
    return any(line and not line.startswith("#") for line in code)


def indent_body(body, indent, expression=False):
    """The learner's column-0 body, indented into its slot; a body of blanks and comments gets
    a `pass` (a slot that holds an expression stays as it is)."""
    found = [line.expandtabs(4) for line in lines(body.rstrip(BLANK))]
    found = [] if found == [""] else found
    if not expression and not has_statement(body):
        found.append("pass")
    return "\n".join(" " * indent + line if line.strip(BLANK) else "" for line in found)


def assemble(segments, bodies, expression=False):
    """The source of the segments with `bodies[op]` in each slot, and where each slot starts.

    Returns `(source, starts)`: `starts[op]` is the 1-based line of the slot's first line.
    """
    parts, starts, line = [], {}, 1
    for piece in segments:
        if "slot" in piece:
            starts[piece["slot"]] = line
            text = indent_body(bodies[piece["slot"]], piece["indent"], expression) + "\n"
        else:
            text = piece["text"]
        parts.append(text)
        line += text.count("\n")
    return "".join(parts), starts
