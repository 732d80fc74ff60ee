"""Nothing answered before it is asked: no page shows an exercise's answer above the place that
asks for it, in the nav's order, unless the exercise declares that page a worked example.

What a page shows is every fence's text (code blocks, folded ones inside admonitions, a
```source fence's code, a quiz's words), its inline code, and the starters of the tabs of its
exercise blocks (a tab's neighbours are one click away, so a block's starters count as shown at
the block). An exercise's place is the first ```exercise block that shows its tab (a graph
exercise brings the op tabs it runs).

Whether a text holds an answer is decided as a learner's code is: by the grader. Each piece of
code that has the shape of an answer (a `_backward` closure's body, a local-gradients tuple, a
function of one to three arguments) is graded as that exercise's code, and one that passes its
checks is its answer, in whatever notation it is written: `out.data * (1 - out.data)` for
sigmoid's `s * (1 - s)`, a checker's function under another name. Matching text would miss
those and flag wrong answers shown on purpose (`self.grad = ...` before the `+=`).

An op exercise may say `example = "<nav title>"`: that page works its answer through, the tab
says so, and from that page on showing it is no spoiler. The page must then show it.

Words are not code: a formula or a sentence in prose, a hint, a widget's settings are held to
the ladder by tests/test_disclosure.py instead. Find the bug's engines come after every op tab,
so this rule holds nothing of them; their editors fold the finished closures of the tabs a
learner has not passed (widget/src/editor/folds.js).
"""

import ast
import builtins
import re
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from grader import grade
from grader.kinds.registry import KINDS
from grader.ops import CLOSURES, LOCAL_GRADS
from grader.scaffold import scope

from .pagecode import FENCE, _closing
from .series import nav_pages
from .widget_data import with_op_tabs

INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
NOT_SHOWN = {"output", "graph", "training", "microgpt", "work", "engine-check"}


class SpoilerError(ValueError):
    """A page shows an exercise's answer before asking for it; the message names both."""


@dataclass(frozen=True)
class Shown:
    """A text a page shows: where it starts, what it is, and the text."""

    page: str
    line: int
    what: str
    text: str


def check_spoilers(docs_dir, nav, catalog, root):
    """Raise SpoilerError, one line naming the page and the exercise, at the first exercise
    whose answer a page shows before its place (or whose `example` page does not show it)."""
    pages, folder = list(nav_pages(nav)), Path(docs_dir).name
    shown, places = [], {}
    for order, page in enumerate(pages):
        markdown = (Path(docs_dir) / page).read_text(encoding="utf-8")
        for item, ids in _page_texts(page, markdown, catalog, root):
            shown.append((order, item))
            for name in ids:
                places.setdefault(name, (order, item.line))
    answers = _Answers(catalog)
    for name, place in places.items():
        exercise = catalog[name]
        start = _example(exercise, dict(_titled(nav)), pages)
        spoilers = [
            (order, item)
            for order, item in shown
            if _before(order, item, place) and answers.holds(exercise, item.text)
        ]
        early = [item for order, item in spoilers if order < start]
        if early:
            raise SpoilerError(_spoiled(early[0], name, folder, pages[place[0]], place[1]))
        if exercise.example and not any(order == start for order, _ in spoilers):
            raise SpoilerError(
                f"exercises/{name}/exercise.toml: `example` names {exercise.example!r}, but "
                f"{folder}/{pages[start]} does not show its answer above the exercise: drop "
                "`example`"
            )


def _example(exercise, titles, pages):
    """The index of the page an exercise's `example` names: where its answer may first show
    (past the last page without one)."""
    if not exercise.example:
        return len(pages)
    if titles.get(exercise.example) not in pages:
        raise SpoilerError(
            f"exercises/{exercise.id}/exercise.toml: `example` names {exercise.example!r}, "
            "which is no page of mkdocs.yml's nav: give the page's title as the nav does"
        )
    return pages.index(titles[exercise.example])


def _before(order, item, place):
    """Above the place, or a starter of the block that is the place: its tabs are side by side."""
    if (order, item.line) == place:
        return item.what.startswith("the starter")
    return (order, item.line) < place


def _spoiled(item, name, folder, page, line):
    return (
        f"{folder}/{item.page}:{item.line}: {item.what} shows the answer of exercise {name} "
        f"before {folder}/{page}:{line} asks for it: move it below the exercise, or make the "
        f"page its worked example (`example` in exercises/{name}/exercise.toml, AUTHORING.md)"
    )


def _titled(nav):
    """`(title, page)` for every page of the nav that has a title."""
    for entry in nav or []:
        if isinstance(entry, dict):
            title, value = next(iter(entry.items()))
            if isinstance(value, list):
                yield from _titled(value)
            elif isinstance(value, str):
                yield title, value


def _page_texts(page, markdown, catalog, root):
    """`(Shown, exercise ids placed there)` for each text `page` shows, in order."""
    lines, i = markdown.splitlines(), 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            for span in INLINE.finditer(lines[i]):
                yield Shown(page, i + 1, "inline code", span[1]), ()
            i += 1
            continue
        end = _closing(lines, i + 1, opening["fence"], opening["indent"])
        kind = opening["info"].split(" ")[0]
        body = textwrap.dedent("\n".join(lines[i + 1 : end]))
        what = "a folded code block" if opening["indent"] else "a code block"
        if kind == "exercise":
            ids = with_op_tabs([name for name in body.split() if name in catalog], catalog)
            for name in ids:
                for stub in catalog[name].stubs.values():
                    yield Shown(page, i + 1, f"the starter of tab {name}", stub), ids
        elif kind == "quiz":  # its words, in TOML: their inline code is what could answer
            for span in INLINE.finditer(body):
                yield Shown(page, i + 1, "a quiz", span[1]), ()
        elif kind == "source":
            yield Shown(page, i + 1, "a source block", _source(body, root)), ()
        elif kind not in NOT_SHOWN:
            yield Shown(page, i + 1, what, body), ()
        i = end + 1


def _source(body, root):
    from .lessons import LessonError, _source  # lessons imports the widgets': lazily

    try:
        return _source(type("Item", (), {"body": body}), root, "source")
    except LessonError:
        return ""  # the page's own check names the missing file or name


class _Answers:
    """Whether a text holds an exercise's answer: each piece of it shaped like one, graded as
    the learner's code is (`grader.grade`, the verdicts' own test); a text is a page's own
    code, trusted as the lessons' is."""

    def __init__(self, catalog):
        self.catalog = catalog
        self.graded = {}

    def holds(self, exercise, text):
        if KINDS[exercise.kind].op_tab:
            op = exercise.ops[0]
            names = _names(exercise.design, op)
            return any(
                self._passes(exercise, {op: piece})
                for piece, free in _pieces(text, exercise.design)
                if free <= names  # else a NameError: no need to run it to know
            )
        if KINDS[exercise.kind].functions:
            methods = (n for n in _functions(text) if n.args.args[0].arg != "self")
            return any(self._part(exercise, node) for node in methods)
        # a graph tab has no code of its own; an engine tab's answer is a fix to code it shows,
        # each closure of which its op's tab asks for first, under this rule
        return False

    def _passes(self, exercise, bodies, call=None):
        key = (exercise.id, repr(sorted(bodies.items())), call)
        if key not in self.graded:
            result = grade(exercise.id, bodies, self.catalog)
            checks = result["checks"] if len(result["checks"]) == len(exercise.checks) else []
            self.graded[key] = (
                result["verdict"] == "pass"
                if call is None
                else bool(checks)  # a run that raised graded only the checks before it
                and all(
                    c["passed"]
                    for check, c in zip(exercise.checks, checks, strict=True)
                    if check.call == call
                )
            )
        return self.graded[key]

    def _part(self, exercise, node):
        """One function, whatever its name, that passes every check of one of the checker's
        functions of its arity, beside the reference's others."""
        reference = exercise.solutions[exercise.ops[0]]
        arity = {f.name: len(f.args.args) for f in _functions(reference)}
        for name, count in arity.items():
            if count != len(node.args.args):
                continue
            renamed = ast.unparse(ast.FunctionDef(**{**vars(node), "name": name}))
            if self._passes(exercise, {exercise.ops[0]: f"{reference}\n\n{renamed}\n"}, name):
                return True
        return False


def _parsed(text):
    try:
        return ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return None


def _functions(text):
    """Every function a text defines with one to three arguments."""
    tree = _parsed(text)
    nodes = ast.walk(tree) if tree else ()
    return [n for n in nodes if isinstance(n, ast.FunctionDef) and 1 <= len(n.args.args) <= 3]


@cache
def _names(design, op):
    return frozenset(scope(design, op)) | frozenset(dir(builtins))


@cache
def _pieces(text, design):
    """`(piece, the names it reads)` for each piece of `text` shaped like an answer."""
    return [(piece, _free(piece)) for piece in _shaped(text, design)]


def _shaped(text, design):
    """The pieces of `text` shaped like an op's answer in its design: a closure's body (or a
    text that is one, assigning a `.grad`), or a local-gradients tuple (the third argument of a
    call, as `Value(data, children, local_grads)` takes it, or a text that is one)."""
    text = textwrap.dedent(text)
    tree = _parsed(text)
    if tree is None:
        return []
    lines = text.splitlines()
    nodes = list(ast.walk(tree))
    if design == CLOSURES:
        pieces = [
            textwrap.dedent("\n".join(lines[n.body[0].lineno - 1 : n.body[-1].end_lineno]))
            for n in nodes
            if isinstance(n, ast.FunctionDef) and not n.args.args
        ]
        pieces += _with_preludes(text, nodes)
        grads = any(isinstance(n, ast.Attribute) and n.attr == "grad" for n in nodes)
        if grads and not any(isinstance(n, ast.FunctionDef | ast.ClassDef) for n in nodes):
            pieces.append(text)
        return pieces
    if design != LOCAL_GRADS:
        return []
    # a constant (micrograd's `_op` label, "+") is no tuple in any notation
    pieces = [
        ast.get_source_segment(text, n.args[2])
        for n in nodes
        if _three_args(n) and not isinstance(n.args[2], ast.Constant | ast.JoinedStr)
    ]
    pieces += [
        ast.get_source_segment(text, k.value)
        for n in nodes
        if isinstance(n, ast.Call)
        for k in n.keywords
        if k.arg == "local_grads"
    ]
    whole = tree.body[0] if len(tree.body) == 1 else None
    if isinstance(whole, ast.Expr) and isinstance(whole.value, ast.Tuple):
        pieces.append(text)
    return pieces


def _with_preludes(text, nodes):
    """Each closure's body after the assignments its method makes before defining it (`s = ...`),
    so that a closure reading a name of its own (`sig`, not the scaffold's `s`) is graded too:
    the assignments to the method's own names only, never to `out`, `self` or `other`."""
    pieces = []
    for method in (n for n in nodes if isinstance(n, ast.FunctionDef)):
        for i, closure in enumerate(method.body):
            if not isinstance(closure, ast.FunctionDef) or closure.args.args:
                continue
            prelude = [
                ast.get_source_segment(text, statement)
                for statement in method.body[:i]
                if isinstance(statement, ast.Assign)
                and all(
                    isinstance(target, ast.Name) and target.id not in {"out", "self", "other"}
                    for target in statement.targets
                )
            ]
            if prelude:
                body = [ast.get_source_segment(text, statement) for statement in closure.body]
                pieces.append("\n".join(prelude + [textwrap.dedent("\n".join(body))]))
    return pieces


def _free(piece):
    """The names a piece reads without assigning them itself."""
    nodes = list(ast.walk(_parsed(piece) or ast.Module(body=[], type_ignores=[])))
    names = [n for n in nodes if isinstance(n, ast.Name)]
    own = {n.id for n in names if not isinstance(n.ctx, ast.Load)}
    own |= {n.name for n in nodes if isinstance(n, ast.FunctionDef)}
    own |= {
        a.arg for n in nodes if isinstance(n, ast.Lambda | ast.FunctionDef) for a in n.args.args
    }
    return {n.id for n in names} - own


def _three_args(node):
    return isinstance(node, ast.Call) and len(node.args) >= 3
