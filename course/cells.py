"""A lesson page's live cells, as the build marks them up for the page's Python session
(widget/src/lessons/, runner/notebook.py):

- each Python block the build runs (folded ones too) becomes
  `<div class="mg-cell" data-cell="i" data-cell-state="idle">`, its highlighted code as before
  and its output block (`data-cell-output`), or an empty hidden one;
- each graph figure has `data-graph="j"`, each claim `data-claim="k"` (page order from 0);
- one `<template data-lesson>` (in a hidden block) before the first cell holds what the
  session needs, as JSON: `{"page", "cells": [{"code", "raises", "long"}], "graphs":
  [{"expr", "after"}], "claims": [{"expr", "text", "after"}], "time_limit", "names"}`,
  `after` the index of the last cell before it (-1 if none), `long` whether it is marked
  `<!-- runs long -->` (an edit of it may take as long as the page's own code: the course's
  time limit would stop it), `names` whether the page's code imports microgpt (whose
  names.py reads names.txt, which the page then hands its runner).
  A template, as the widgets' data is: Material's instant navigation re-creates every
  <script> of a new page as code to run.

`Cells` collects them while course/lessons.py reads the page (Markdown), and `wrap` groups each
cell's code and output once the page is HTML.
"""

import ast
import json
import re

from .assets import RUNNER_PACKAGES
from .imports import module_path
from .pagecode import CLAIM, FENCE
from .widget_data import safe_json

# a Python block's fence, as Markdown renders it: the code's highlight block, then its output's
CELL = re.compile(
    r'<div class="(?P<classes>[^"]*)" data-mg-cell="(?P<index>\d+)">(?P<code>.*?</div>)'
    r"(?P<output>\s*<div [^>]*\bdata-cell-output\b[^>]*>.*?</div>)?",
    re.S,
)
CARRIER = re.compile(r"<template data-lesson>(.*?)</template>", re.S)
WRAPPED = re.compile(r'<div class="mg-cell" data-cell="(\d+)"')
EMPTY_OUTPUT = '<div class="mg-output" data-cell-output hidden></div>'


class CellError(ValueError):
    """A page whose cells did not come through conversion as they went in."""


class Cells:
    """What one page's cells, graphs and claims are, in page order."""

    def __init__(self, page, time_limit):
        self.page, self.time_limit = page, time_limit
        self.cells, self.graphs, self.claims = [], [], []
        self.first_line = None  # where the first cell's top-level block starts

    def cell(self, item, lines):
        """The opening line of a Python block's fence, marked as the next cell."""
        opening = FENCE.match(lines[item.line - 1])
        beyond = sorted(
            name
            for name in _imported(item.body)
            if module_path(name) and name not in RUNNER_PACKAGES  # the course's, not the runner's
        )
        if beyond:
            raise CellError(
                f"the block imports {', '.join(beyond)}, which the page's Python does not hold "
                f"(only {', '.join(RUNNER_PACKAGES)} and the standard library): a learner "
                "running it would meet ModuleNotFoundError"
            )
        if not self.cells:
            self.first_line = _top_level(lines, item.line)
        rest = item.info.partition(" ")[2]
        self.cells.append({"code": item.body, "raises": item.raises, "long": item.long})
        marks = " ".join(filter(None, [".python", rest, f'data-mg-cell="{len(self.cells) - 1}"']))
        return f"{opening['indent']}{opening['fence']} {{ {marks} }}"

    def graph(self, expression):
        """The index of the graph of `expression`, drawn here (both directions: the figure has
        a canvas drawn left to right, shown on wide screens, and one top down)."""
        after = len(self.cells) - 1
        self.graphs.append({"expr": expression, "after": after})
        return len(self.graphs) - 1

    def claim(self, item):
        self.claims.append({"expr": item.expr, "text": item.body, "after": len(self.cells) - 1})

    def marked(self, lines):
        """The page's lines with each claim's `data-claim`, in page order."""
        count = iter(range(len(self.claims)))

        def mark(claim):
            text = claim.group()
            return text[: text.rindex("}")].rstrip() + f' data-claim="{next(count)}" }}'

        return [CLAIM.sub(mark, line) for line in lines]

    def carrier(self):
        """The page's `data-lesson` template, in a block Markdown leaves as it is."""
        found = {"page": self.page, "cells": self.cells, "graphs": self.graphs}
        found |= {"claims": self.claims, "time_limit": self.time_limit, "names": self.names()}
        return (
            '<div class="mg-lesson" data-search-exclude hidden>'
            f"<template data-lesson>{safe_json(found)}</template></div>"
        )

    def names(self):
        """Whether a block imports microgpt's names (microgpt/names.py), which read names.txt."""
        return any("microgpt" in _imported(cell["code"]) for cell in self.cells)


def _imported(code):
    """The top-level packages a block imports (none where it does not parse: a block that
    raises on purpose may not)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.partition(".")[0])
    return names


def _top_level(lines, number):
    """The line (1-based) that starts the top-level block holding line `number`: a folded
    block's `??? note`, or the line itself."""
    while number > 1 and lines[number - 1][:1] in (" ", "\t", ""):
        number -= 1
    return number


def wrap(page_html):
    """Each cell's code and output in its `data-cell` element; the output an empty hidden one
    where the block shows none."""

    def cell(found):
        code = f'<div class="{found["classes"]}">{found["code"]}'
        output = found["output"] or EMPTY_OUTPUT
        return (
            f'<div class="mg-cell" data-cell="{found["index"]}" data-cell-state="idle">'
            f"{code}{output}</div>"
        )

    wrapped = CELL.sub(cell, page_html)
    carrier = CARRIER.search(wrapped)
    cells = len(json.loads(carrier[1])["cells"]) if carrier else 0
    found = [int(index) for index in WRAPPED.findall(wrapped)]
    if found != list(range(cells)) or "data-mg-cell=" in wrapped:
        raise CellError(
            f"the page has {cells} Python blocks but its HTML holds the cells {found}: a block's "
            "markup was lost or changed in conversion (course/cells.py reads Material's)"
        )
    return wrapped
