"""The code of a lesson page: its blocks, in order, and what they do when run.

A page is read as a list of items, each with the 1-based line it starts on:

- ```` ```python ```` blocks run in order, in one namespace per page, as a notebook's cells
  (runner/notebook.py, the page's Python session in the browser too).
- An ```` ```output ```` block right after a Python block shows what that block prints, then
  the repr of its final bare expression (unless None); it must be exactly that. A Python block
  with output must be followed by one.
- `<!-- raises NameOfError -->` on the line before a Python block marks it as deliberately
  broken: it must raise that exception, and its output block ends with the last line of the
  traceback (`NameOfError: message`).
- `<!-- runs long -->` there marks a block that runs for a while (training): an edit of it may
  take as long in a learner's browser as the page's own code (course/cells.py `long`).
- `**text**{ data-check="expr" }` (or the same on an inline code span) is a number in the prose
  that the code must bear out: the last number in `text` must equal `expr`, evaluated where the
  claim stands. With `≈` in the text, the number is rounded as shown; without it, it must agree
  to seven decimals.
- ```` ```graph ```` blocks draw the computation graph of a `Value` (see `runner.drawing`),
  ```` ```quiz ```` blocks hold a quiz (see `course.quiz`), ```` ```exercise ```` blocks
  name the exercises of a widget, ```` ```work ```` places "Download my work" and "Load work",
  and ```` ```training ```` embeds the training widget (see
  `course.lessons`).

This is the one reader of a page's fences: a fence that is never closed is an error, and so is
one named almost like a kind above (`exercize`) that names no language Pygments knows.

Fences may be indented (inside admonitions); their bodies are dedented.
"""

import difflib
import re
import textwrap
import time
from dataclasses import dataclass
from functools import cache

from pygments.lexers import find_lexer_class_by_name
from pygments.util import ClassNotFound

# the packages a page's code imports, imported here: its blocks run with Python's own finders
# only (runner/sandbox.py), as in the browser, where an editable install's finder is not one
import microgpt  # noqa: F401
import training  # noqa: F401
from grader.exercises import load_catalog
from grader.runner_data import runner_data
from runner.notebook import start

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*?)\s*$")
RAISES = re.compile(r"^\s*<!--\s*raises\s+(?P<error>\w+)\s*-->\s*$")
RUNS_LONG = re.compile(r"^\s*<!--\s*runs long\s*-->\s*$")
CLAIM = re.compile(
    r"(?P<mark>\*\*|`)(?P<text>[^*`\n]+)(?P=mark)\{\s*data-check=\"(?P<expr>[^\"]+)\"\s*\}"
)
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
    long: bool = False  # marked `<!-- runs long -->`
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
            before = lines[i - 1] if i else ""
            raises = RAISES.match(before)
            error, long = raises and raises["error"], bool(RUNS_LONG.match(before))
            items.append(Item(kind, i + 1, end + 1, body, opening["info"], error, long))
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
    """What one Python block did, as the page's Python session says (runner/notebook.py)."""

    result: dict  # Notebook.run's: output, printed_lines, truncated, error
    seconds: float = 0.0  # the CPU time it took here

    @property
    def error(self):
        """None, or the exception it raised: `{"type", "message", "line"}`."""
        return self.result["error"]

    def shown(self):
        """The output a page shows for this block: the printout, a final expression's repr, or
        the error's last line, as the learner's session shows it."""
        return self.result["output"]


def run(items, known=None):
    """Run the page, yielding `(item, namespace, ran)` as each item is reached.

    `ran` is a `Ran` for Python blocks and None for the rest. The blocks run in one session of
    runner/notebook.py, as the browser runs them; `known` is the runner's data its code may read
    (grader/runner_data.py's, by default of the course's own exercises). The namespace is live:
    read it before asking for the next item.
    """
    notebook = start(_known() if known is None else known)
    for item in items:
        ran = None
        if item.kind == "python":
            started = time.thread_time()  # CPU time: what a busy machine inflates least
            result = notebook.run(item.body)
            ran = Ran(result, time.thread_time() - started)
        yield item, notebook.namespace, ran


@cache
def _known():
    return runner_data(load_catalog())
