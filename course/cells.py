"""A lesson page's live cells, as the build marks them up for the page's Python session
(widget/src/lessons/, runner/notebook.py):

- each Python block the build runs (folded ones too) becomes
  `<div class="mg-cell" data-cell="i" data-cell-state="idle">`, its highlighted code as before
  and its output block (`data-cell-output`), or an empty hidden one;
- each graph figure has `data-graph="j"`, each claim `data-claim="k"` (page order from 0);
- one `<script type="application/json" data-lesson>` before the first cell holds what the
  session needs: `{"page", "cells": [{"code", "raises"}], "graphs": [{"expr", "after",
  "direction"}], "claims": [{"expr", "text", "after"}]}`, `after` the index of the last cell
  before it (-1 if none).

`Cells` collects them while course/lessons.py reads the page (Markdown), and `wrap` groups each
cell's code and output once the page is HTML.
"""

import json
import re

from .pagecode import CLAIM, FENCE

# a Python block's fence, as Markdown renders it: the code's highlight block, then its output's
CELL = re.compile(
    r'<div class="(?P<classes>[^"]*)" data-mg-cell="(?P<index>\d+)">(?P<code>.*?</div>)'
    r"(?P<output>\s*<div [^>]*\bdata-cell-output\b[^>]*>.*?</div>)?",
    re.S,
)
SCRIPT = re.compile(r'<script type="application/json" data-lesson>(.*?)</script>', re.S)
WRAPPED = re.compile(r'<div class="mg-cell" data-cell="(\d+)"')
EMPTY_OUTPUT = '<div class="mg-output" data-cell-output hidden></div>'


class CellError(ValueError):
    """A page whose cells did not come through conversion as they went in."""


class Cells:
    """What one page's cells, graphs and claims are, in page order."""

    def __init__(self, page):
        self.page = page
        self.cells, self.graphs, self.claims = [], [], []
        self.first_line = None  # where the first cell's top-level block starts

    def cell(self, item, lines):
        """The opening line of a Python block's fence, marked as the next cell."""
        opening = FENCE.match(lines[item.line - 1])
        if not self.cells:
            self.first_line = _top_level(lines, item.line)
        rest = item.info.partition(" ")[2]
        self.cells.append({"code": item.body, "raises": item.raises})
        marks = " ".join(filter(None, [".python", rest, f'data-mg-cell="{len(self.cells) - 1}"']))
        return f"{opening['indent']}{opening['fence']} {{ {marks} }}"

    def graph(self, expression):
        """The index of the graph of `expression`, drawn here (both directions: the figure has
        a canvas drawn left to right, shown on wide screens, and one top down)."""
        after = len(self.cells) - 1
        self.graphs.append({"expr": expression, "after": after, "direction": "LR"})
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

    def script(self):
        """The page's `data-lesson` script: JSON that no `</script>` or Markdown can end."""
        found = {"page": self.page, "cells": self.cells, "graphs": self.graphs}
        text = json.dumps(found | {"claims": self.claims}, separators=(",", ":"))
        for special, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
            text = text.replace(special, escaped)
        return f'<script type="application/json" data-lesson>{text}</script>'


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
    script = SCRIPT.search(wrapped)
    cells = len(json.loads(script[1])["cells"]) if script else 0
    found = [int(index) for index in WRAPPED.findall(wrapped)]
    if found != list(range(cells)) or "data-mg-cell=" in wrapped:
        raise CellError(
            f"the page has {cells} Python blocks but its HTML holds the cells {found}: a block's "
            "markup was lost or changed in conversion (course/cells.py reads Material's)"
        )
    return wrapped
