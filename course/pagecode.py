"""The code of a lesson page: its blocks, in order, and what they do when run.

A page is read as a list of items, each with the 1-based line it starts on:

- ```` ```python ```` blocks run in order, in one namespace per page, in CPython.
- An ```` ```output ```` block right after a Python block shows what that block prints; it must
  be exactly that. A Python block that prints must be followed by one.
- `<!-- raises NameOfError -->` on the line before a Python block marks it as deliberately
  broken: it must raise that exception, and its output block ends with the last line of the
  traceback (`NameOfError: message`).
- `**text**{ data-check="expr" }` (or the same on an inline code span) is a number in the prose
  that the code must bear out: the last number in `text` must equal `expr`, evaluated where the
  claim stands. With `≈` in the text, the number is rounded as shown; without it, it must agree
  to seven decimals.
- ```` ```graph ```` blocks draw the computation graph of a `Value` (see `course.graphs`),
  ```` ```quiz ```` blocks hold a quiz (see `course.quiz`), ```` ```exercise ```` blocks
  name the exercises of a widget, ```` ```work ```` places "Download my work" and "Load work",
  and ```` ```training ```` embeds the training widget (see
  `course.lessons`).

This is the one reader of a page's fences: a fence that is never closed is an error, and so is
one named almost like a kind above (`exercize`) that names no language Pygments knows.

Fences may be indented (inside admonitions); their bodies are dedented.
"""

import contextlib
import difflib
import io
import re
import textwrap
import traceback
from dataclasses import dataclass

from pygments.lexers import find_lexer_class_by_name
from pygments.util import ClassNotFound

from grader.precision import agrees

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*?)\s*$")
RAISES = re.compile(r"^\s*<!--\s*raises\s+(?P<error>\w+)\s*-->\s*$")
CLAIM = re.compile(
    r"(?P<mark>\*\*|`)(?P<text>[^*`\n]+)(?P=mark)\{\s*data-check=\"(?P<expr>[^\"]+)\"\s*\}"
)
NUMBER = re.compile(r"[-−]?\d+(?:\.\d+)?")
KINDS = {
    *("python", "output", "graph", "quiz", "source"),
    *("exercise", "training", "microgpt", "work", "engine-check"),
}


@dataclass
class Item:
    """One thing on a page the code is concerned with."""

    kind: str  # python, output, graph, quiz or claim
    line: int
    end: int = 0  # a fence's closing line
    body: str = ""  # a fence's dedented text, or a claim's visible text
    info: str = ""  # a fence's info string
    raises: str | None = None  # the exception a deliberately broken block raises
    expr: str = ""  # a claim's expression


def parse(markdown):
    """The page's items, in the order they appear."""
    lines = markdown.splitlines()
    items, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            items.extend(_claims(lines[i], i + 1))
            i += 1
            continue
        end = _closing(lines, i + 1, opening["fence"], opening["indent"])
        kind = opening["info"].split(" ")[0]
        _check_spelling(kind, i + 1)
        if kind in KINDS:
            body = textwrap.dedent("\n".join(lines[i + 1 : end]))
            raises = RAISES.match(lines[i - 1]) if i else None
            items.append(
                Item(kind, i + 1, end + 1, body, opening["info"], raises and raises["error"])
            )
        i = end + 1
    return items


def _check_spelling(name, line):
    """A fence named almost like one of KINDS (`exercize`, `Quiz`, `pyhton`) would show as a
    code block, or not run: unless Pygments knows it as a language, it is a slip."""
    known = difflib.get_close_matches(name.lower(), KINDS, n=1, cutoff=0.75)
    if not known or name in KINDS or (name.lower() not in KINDS and _language(name)):
        return
    raise ValueError(
        f"line {line}: ```{name} is no fence the course knows, so it would show as code: "
        f"did you mean ```{known[0]}? (a code block names a language Pygments knows)"
    )


def _language(name):
    try:
        find_lexer_class_by_name(name)
    except ClassNotFound:
        return False
    return True


def _closing(lines, start, fence, indent):
    closing = re.compile(rf"^{indent}[ \t]*{fence[0]}{{{len(fence)},}}\s*$")
    for i in range(start, len(lines)):
        if closing.match(lines[i]):
            return i
    raise ValueError(f"line {start}: a {fence} fence is never closed")


def _claims(line, number):
    for claim in CLAIM.finditer(line):
        yield Item("claim", number, number, claim["text"], expr=claim["expr"])


@dataclass
class Ran:
    """What one Python block did: what it printed, and the exception it raised (or None)."""

    printed: str
    error: BaseException | None

    def shown(self):
        """The output a page shows for this block: the printout, then the error's last line."""
        if self.error is None:
            return self.printed
        last = traceback.format_exception_only(self.error)[-1]
        return self.printed + last


def run(items, page="page"):
    """Run the page, yielding `(item, namespace, ran)` as each item is reached.

    `ran` is a `Ran` for Python blocks and None for the rest. The namespace is live: read it
    before asking for the next item.
    """
    namespace = {"__name__": "__main__"}
    for item in items:
        if item.kind != "python":
            yield item, namespace, None
            continue
        printed = io.StringIO()
        code = compile(item.body, f"{page}:{item.line + 1}", "exec")
        error = None
        with contextlib.redirect_stdout(printed):
            try:
                exec(code, namespace)
            except Exception as raised:  # the page's own code; reported to the caller
                error = raised
        yield item, namespace, Ran(printed.getvalue(), error)


def claimed_number(text):
    """The last number written in a claim's text, as a float (a Unicode minus counts)."""
    numbers = NUMBER.findall(text)
    if not numbers:
        raise ValueError(f"the claim {text!r} holds no number")
    return float(numbers[-1].replace("−", "-"))


def claim_holds(text, value):
    """Whether `value` bears out the number in `text` (see the module's docstring)."""
    shown = claimed_number(text)
    if "≈" in text:
        decimals = len(NUMBER.findall(text)[-1].partition(".")[2])
        return round(value, decimals) == shown
    return agrees(value, shown)
