"""Diagrams and formulas rendered at build time by `prerender.mjs` (Graphviz and KaTeX in Node).

The pages then need no script to show them, and nothing is fetched at run time.
"""

import html
import json
import re
from pathlib import Path

from .assets import AssetError, node
from .escapes import lost_escape

SCRIPT = Path(__file__).with_name("prerender.mjs")


class PrerenderError(RuntimeError):
    """Node is missing, or a diagram or formula could not be rendered."""


def _node(job, root):
    try:
        done = json.loads(node(root, SCRIPT, stdin=json.dumps(job)))
    except AssetError as error:
        raise PrerenderError(str(error)) from error
    if "error" in done:  # the input's fault, said in a line
        raise PrerenderError(done["error"])
    return done


def svgs(sources, root):
    """Each DOT source as inline SVG (course/prerender.mjs cleans it as the page's redrawn
    graphs are, widget/src/lessons/clean-svg.js)."""
    if not sources:
        return []
    return _node({"graphs": sources, "math": []}, root)["graphs"]


MATH = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\s*\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]\s*</(?P=tag)>',
    re.S,
)


def render_math(page_html, root):
    """`page_html` with each formula pymdownx.arithmatex left (generic mode) typeset by KaTeX;
    a formula that lost a backslash escape (`lost_escape`) is a PrerenderError."""
    return render_math_each([page_html], root)[0]


def render_math_each(texts, root):
    """`render_math` of each of `texts` (a widget's prompts and hints), with one run of Node."""
    found = [
        {"tex": html.unescape(m["tex"]), "display": m["open"] == "["}
        for text in texts
        for m in MATH.finditer(text)
    ]
    if not found:
        return list(texts)
    for formula in found:
        problem = lost_escape(formula["tex"])
        if problem:
            raise PrerenderError(problem)
    rendered = iter(_node({"graphs": [], "math": found}, root)["math"])

    def typeset(m):
        return f'<{m["tag"]} class="arithmatex">{next(rendered)}</{m["tag"]}>'

    return [MATH.sub(typeset, text) for text in texts]
