"""The lesson pages' build step: run each page's code, draw its graphs, render quizzes and formulas.

- `prepare(markdown, ...)`, before Markdown is converted: runs the page's Python blocks in order
  (as `tests/test_docs.py` does) and holds the page to what they do (`course.pagetruth`),
  replaces each ```` ```graph ```` fence with the SVG of the graph it names, each
  ```` ```quiz ```` fence with its form, each ```` ```exercise ```` and ```` ```training ````
  fence with its widget, and gives ```` ```output ```` blocks their "Output" title.
- `finish(html, ...)`, after: typesets the formulas with KaTeX (refusing one that lost a
  backslash to TOML, `course.escapes`).
- `copy_katex(...)`: KaTeX's stylesheet and fonts for the built site.

A graph fence holds the expression of a `Value` on its first line and, optionally, a caption
in Markdown on the lines after it. An exercise fence lists exercise ids (`exercises/`), on one
line or several.
"""

import ast
import html
import re
import shutil
import textwrap
from pathlib import Path

from runner import drawing

from . import cells, pagecode, pagetruth, prerender, quiz

KATEX_DIR = "assets/katex"
KATEX_CSS = f"{KATEX_DIR}/katex.min.css"
# what scrolls sideways in a code block: its <code> (Material's, after an empty <span>), else
# the <pre> itself
CODE_IN_PRE = re.compile(
    r"(<pre(?:\s[^>]*)?>(?:<span[^>]*></span>)?)<code(?![^>]*\btabindex=)(?=[\s>])"
)
PRE = re.compile(r"<pre(?![^>]*\btabindex=)(?=[\s>])(?![^>]*>(?:<span[^>]*></span>)?<code)")
OUTPUT_FENCE = '```{ .text .mg-output title="Output" data-cell-output="" }'
WIDGETS = ("exercise", "training", "microgpt", "work", "engine-check")
# fences the course replaces: at the left margin, alone
FENCED = ("graph", "quiz", "source", *WIDGETS)


# an unmarked block that takes this long stops the build: in a phone's Pyodide it may take five
# times as long, past the course's time limit. The course's short blocks take a tenth of it or
# less, so no machine's speed decides it.
UNMARKED_MAX_S = 1.0


class LessonError(ValueError):
    """A page whose code, graph or quiz is broken; the message names the page and line."""


def prepare(markdown, page, root, to_html, widgets=None, time_limit=5):
    """`markdown` with its graphs, quizzes, widgets and output blocks made ready for
    conversion; `widgets[kind](body)` renders the widget of an ```exercise (its ids) or
    ```training block; `time_limit`, the course's, is its live blocks' too (course/cells.py)."""
    try:
        items = pagecode.parse(markdown)
    except ValueError as error:
        raise LessonError(f"{page}, {error}") from error
    lines = markdown.splitlines()
    replaced = {}  # first line -> (last line, new text)
    drawings, quizzes = [], []
    truth = pagetruth.PageTruth(lines)
    marks = cells.Cells(page, time_limit)
    namespace = {}  # a page with no code (the progress page) has none
    for item, namespace, ran in pagecode.run(items):
        where = f"{page}, line {item.line}"
        opening = lines[item.line - 1]
        _tell(truth.reached, page, item, namespace, ran)
        if ran is not None:
            _check_ran(item, ran, where)
            replaced[item.line] = (item.line, _cell(marks, item, lines, where))
        elif item.kind == "claim":
            marks.claim(item)
        elif item.kind == "output":
            replaced[item.line] = (item.line, opening.partition("`")[0] + OUTPUT_FENCE)
        elif item.kind in FENCED and (item.info != item.kind or opening[0] != "`"):
            raise LessonError(f"{where}: write a ```{item.kind} fence at the left margin, alone")
        elif item.kind in WIDGETS:
            replaced[item.line] = (item.end, f"\n{_widget(item, where, widgets[item.kind])}\n")
        elif item.kind == "graph":
            drawings.append((item, *_graph(item, namespace, where, to_html, marks)))
        elif item.kind == "quiz":
            quizzes.append((item, _quiz(item, where)))
            replaced[item.line] = (item.end, f"\n{quiz.render(quizzes[-1][1], to_html)}\n")
        elif item.kind == "source":
            replaced[item.line] = (item.end, f"```python\n{_source(item, root, where)}\n```")
    _tell(truth.finished, page, quizzes, namespace)
    svgs = iter(prerender.svgs([dot for _, dots, _ in drawings for dot in dots], root))
    for item, dots, figure in drawings:
        replaced[item.line] = (item.end, "\n" + figure(*(next(svgs) for _ in dots)) + "\n")
    return _replace_lines(marks.marked(lines), _with_carrier(marks, lines, replaced))


def finish(page_html, root):
    """The page's HTML with its formulas typeset, and its code blocks focusable: a line too long
    for a phone scrolls sideways, and a keyboard (or a touch screen's reader) can scroll only
    what it can focus, the element that scrolls."""
    try:
        page_html = cells.wrap(page_html)
    except cells.CellError as error:
        raise LessonError(str(error)) from error
    focusable = PRE.sub('<pre tabindex="0"', CODE_IN_PRE.sub(r'\1<code tabindex="0"', page_html))
    return prerender.render_math(focusable, root)


def copy_katex(root, site_dir):
    """Copy KaTeX's stylesheet and fonts from node_modules into `<site>/assets/katex/`."""
    source = Path(root) / "node_modules" / "katex" / "dist"
    if not source.is_dir():
        raise LessonError(f"{source} is missing: run `npm ci` first")
    target = Path(site_dir) / KATEX_DIR
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / "katex.min.css", target / "katex.min.css")
    shutil.copytree(source / "fonts", target / "fonts", dirs_exist_ok=True)


def _check_ran(item, ran, where):
    if not item.long and ran.seconds >= UNMARKED_MAX_S:
        raise LessonError(
            f"{where}: the block took {ran.seconds:.1f} s of CPU here; mark it `<!-- runs long -->`"
            " on the line before it, or a learner's edit of it meets the course's time limit"
        )
    error = ran.error
    if item.raises is None and error is not None:
        raise LessonError(f"{where}: the block raised {ran.shown().splitlines()[-1]}")
    if item.raises is not None and (error or {}).get("type") != item.raises:
        got = "nothing" if error is None else error["type"]
        raise LessonError(f"{where}: the block should raise {item.raises} but raised {got}")


def _cell(marks, item, lines, where):
    try:
        return marks.cell(item, lines)
    except cells.CellError as error:
        raise LessonError(f"{where}: {error}") from error


def _with_carrier(marks, lines, replaced):
    """`replaced` with the page's `data-lesson` template before its first cell, if it has one."""
    first = marks.first_line
    if first is None:
        return replaced
    last, text = replaced.get(first, (first, lines[first - 1]))
    return replaced | {first: (last, f"\n{marks.carrier()}\n\n{text}")}


def _graph(item, namespace, where, to_html, marks):
    """Two DOT sources of the graph a fence names, and a function making the figure of their SVGs.

    The first source is drawn left to right for wide screens, the second top down for phones;
    the site's CSS shows one of them.
    """
    expression, _, caption = item.body.strip().partition("\n")
    try:
        root = eval(expression, namespace)  # the page's own expression, e.g. `L`
    except Exception as error:
        raise LessonError(f"{where}: cannot evaluate {expression!r}: {error!r}") from error
    if not hasattr(root, "_prev"):
        raise LessonError(f"{where}: {expression!r} is not a Value but {root!r}")
    label = html.escape(drawing.describe(root), quote=True)
    index = marks.graph(expression)
    caption = f"<figcaption>{quiz.inline(to_html, caption)}</figcaption>" if caption.strip() else ""

    def figure(wide, narrow):
        canvases = "".join(
            f'<div class="mg-graph__canvas mg-graph__canvas--{size}">'
            + svg.replace("<svg", f'<svg role="img" aria-label="{label}"', 1)
            + "</div>"
            for size, svg in (("wide", wide), ("narrow", narrow))
        )
        return f'<figure class="mg-graph" data-graph="{index}">{canvases}{caption}</figure>'

    return (drawing.dot(root, "LR"), drawing.dot(root, "TB")), figure


def _source(item, root, where):
    """The code a ```source fence names, as it is in the project: `microgpt/model.py rmsnorm
    GPT.attention` gives those definitions of that file, in that order, so a lesson shows the
    code the widget runs and never a copy of it."""
    path, *names = item.body.split()
    try:
        text = (Path(root) / path).read_text(encoding="utf-8")
    except OSError as error:
        raise LessonError(f"{where}: cannot read {path}: {error.strerror}") from error
    found = []
    for name in names or [""]:
        scope = ast.parse(text)
        for part in name.split("."):
            inside = getattr(scope, "body", [])
            scope = next((node for node in inside if getattr(node, "name", None) == part), None)
            if scope is None:
                raise LessonError(f"{where}: {path} defines no {name!r}")
        first = min([scope.lineno, *(d.lineno for d in getattr(scope, "decorator_list", []))])
        lines = text.splitlines()[first - 1 : scope.end_lineno] if name else [text.strip()]
        found.append(textwrap.dedent("\n".join(lines)))
    return "\n\n\n".join(found)


def _widget(item, where, render):
    try:
        return render(_exercise_ids(item, where) if item.kind == "exercise" else item.body)
    except ValueError as error:  # an unknown exercise id
        raise LessonError(f"{where}: {error}") from error


def _exercise_ids(item, where):
    ids = item.body.split()
    if not ids:
        raise LessonError(f"{where}: the ```exercise block names no exercise")
    repeated = sorted({name for name in ids if ids.count(name) > 1})
    if repeated:
        raise LessonError(f"{where}: the ```exercise block repeats {', '.join(repeated)}")
    return ids


def _quiz(item, where):
    try:
        return quiz.parse(item.body)
    except quiz.QuizError as error:
        raise LessonError(f"{where}: {error}") from error


def _tell(step, page, *told):
    """`step(*told)` of a page's PageTruth, its Untrue a LessonError naming the page."""
    try:
        step(*told)
    except pagetruth.Untrue as error:
        raise LessonError(f"{page}, {error}") from error


def _replace_lines(lines, replaced):
    out, number = [], 1
    while number <= len(lines):
        last, text = replaced.get(number, (number, lines[number - 1]))
        out.append(text)
        number = last + 1
    return "\n".join(out) + "\n"
