"""A page's claims held to what its code does, as the build runs it (course/lessons.py).

Each ```` ```output ```` block comes right after a Python block and shows exactly what it
printed, and a block that prints has one; each number in the prose
(`**≈ 0.0148**{ data-check="loss.data" }`) agrees with its expression where it stands
(runner/claims.py); a number quiz's `check` gives its answer once the page has run.
tests/test_docs.py holds the pages to the same rules, with longer reports.
"""

from runner.claims import claim_holds


class Untrue(ValueError):
    """Something the page says that its code does not bear out: the line, and what to fix."""


class PageTruth:
    """Told each item of a page as `pagecode.run` reaches it, then the page's end."""

    def __init__(self, lines):
        self.lines = lines
        self.pending = None  # the last Python block and what it did, until its output block

    def reached(self, item, namespace, ran):
        if item.kind == "output":
            self._output(item)
            return
        self._shown_or_silent()
        if ran is not None:
            self.pending = (item, ran)
        elif item.kind == "claim":
            _claim(item, namespace)

    def finished(self, quizzes, namespace):
        """At the page's end: `quizzes` are `(item, parsed quiz)`, checked against the page."""
        self._shown_or_silent()
        for item, quiz in quizzes:
            if "check" in quiz:
                _quiz(item, quiz, namespace)

    def _shown_or_silent(self):
        if self.pending is None:
            return
        block, ran = self.pending
        self.pending = None
        if ran.shown():
            raise Untrue(
                f"line {block.line}: the block prints {_first_line(ran.shown())!r} but no "
                "```output block right after it shows it: add one with what it prints"
            )

    def _output(self, item):
        if self.pending is None or any(
            line.strip() for line in self.lines[self.pending[0].end : item.line - 1]
        ):
            raise Untrue(
                f"line {item.line}: an ```output block comes right after the Python block "
                "whose printout it shows"
            )
        block, ran = self.pending
        self.pending = None
        printed = ran.shown().rstrip("\n").splitlines()
        shown = item.body.rstrip("\n").splitlines()
        if printed != shown:
            pairs = enumerate(zip(printed, shown, strict=False))
            at = next((i for i, (got, said) in pairs if got != said), min(len(printed), len(shown)))
            got = repr(printed[at]) if at < len(printed) else "nothing more"
            said = repr(shown[at]) if at < len(shown) else "nothing more"
            raise Untrue(
                f"line {item.line + 1 + at}: the ```output block shows {said} where the "
                f"block at line {block.line} prints {got}: show what it prints"
            )


def _evaluated(expression, namespace, cannot):
    """The value of the page's own `expression`, where it stands; `cannot`: why not, said."""
    try:
        return eval(expression, namespace)
    except Exception as error:
        raise Untrue(f"{cannot}: {error!r}") from error


def _claim(item, namespace):
    cannot = f"line {item.line}: the claim {item.body!r} cannot be checked"
    value = _evaluated(item.expr, namespace, cannot)
    try:
        holds = claim_holds(item.body, value)
    except Exception as error:
        raise Untrue(f"{cannot}: {error!r}") from error
    if not holds:
        raise Untrue(
            f"line {item.line}: the text says {item.body!r}, but {item.expr} is {value!r}: "
            "write what the code gives"
        )


def _quiz(item, quiz, namespace):
    cannot = f"line {item.line}: quiz {quiz['id']}'s check cannot run"
    value = _evaluated(quiz["check"], namespace, cannot)  # after the page
    try:
        holds = abs(value - quiz["answer"]) <= quiz["tolerance"]
    except Exception as error:
        raise Untrue(f"{cannot}: {error!r}") from error
    if not holds:
        raise Untrue(
            f"line {item.line}: quiz {quiz['id']} accepts {quiz['answer']} ± "
            f"{quiz['tolerance']}, but {quiz['check']} is {value!r}: give the answer it computes"
        )


def _first_line(text):
    first, _, rest = text.partition("\n")
    return first + (" …" if rest.strip() else "")
