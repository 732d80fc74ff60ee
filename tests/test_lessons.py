"""course.lessons and course.prerender: graphs, quizzes, outputs and formulas at build time.

These run Node (Graphviz and KaTeX from node_modules), as the build does.
"""

import re
import textwrap
from pathlib import Path

import markdown
import pytest

from course import lessons, prerender
from runner import drawing

ROOT = Path(__file__).resolve().parent.parent

VALUE = """\
```python
class Value:
    def __init__(self, data, _children=(), _op="", label=""):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(dict.fromkeys(_children))
        self._op = _op
        self.label = label

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), "*")


a = Value(2.0, label="a")
b = Value(-3.0, label="b")
e = a * b
e.label = "e"
```
"""


def prepare(text):
    return lessons.prepare(textwrap.dedent(text), "page.md", ROOT, markdown.markdown)


def test_a_graph_fence_becomes_accessible_inline_svgs_of_the_live_objects():
    """Two drawings, wide and narrow, each labelled in words; the caption follows."""
    page = prepare(VALUE + "\n```graph\ne\nThe *product*.\n```\n")
    figure = page[page.index("<figure") : page.index("</figure>")]
    assert figure.startswith('<figure class="mg-graph" data-graph="0"><div class="mg-graph__canvas')
    assert figure.endswith("<figcaption>The <em>product</em>.</figcaption>")
    assert "\n\n" not in figure  # a blank line would end the raw HTML block
    drawings = re.findall(
        r'<div class="mg-graph__canvas mg-graph__canvas--(\w+)">(.*?)</div>', figure, re.S
    )
    assert [size for size, _ in drawings] == ["wide", "narrow"]
    for _, svg in drawings:
        assert 'role="img" aria-label="Computation graph of e: a is a leaf (data 2.0000' in svg
        assert "e = * of a and b (data -6.0000, grad 0.0000)" in svg
        assert svg.count('class="node value leaf"') == 2
        assert svg.count('class="node value result"') == 1
        assert svg.count('class="node op"') == 1 and svg.count('class="edge"') == 3
        assert "data &#45;6.0000" in svg
        assert " id=" not in svg and "<title>" not in svg and "<!--" not in svg
        assert not re.search(r'(width|height)="[\d.]+pt"', svg)
    wide, narrow = (re.search(r'viewBox="0.00 0.00 ([\d.]+) ([\d.]+)"', svg) for _, svg in drawings)
    assert float(wide[1]) > float(wide[2]) and float(narrow[1]) < float(narrow[2])


def test_graphs_show_grad_only_once_values_have_one():
    class Bare:
        def __init__(self, data, label):
            self.data, self.label, self._prev, self._op = data, label, (), ""

    assert "grad" not in drawing.dot(Bare(1.0, "x"))
    assert "grad" not in drawing.describe(Bare(1.0, "x"))


def test_record_labels_are_escaped():
    class Named:
        data, grad, _prev, _op = 0.0, -0.0, (), ""
        label = "a|b {c}"

    assert 'label="a\\|b \\{c\\} | data 0.0000 | grad 0.0000"' in drawing.dot(Named())


def test_output_fences_get_their_title_and_quizzes_their_form():
    page = prepare("""\
        ```python
        print(1)
        ```

        ```output
        1
        ```

        ```quiz
        id = "q"
        question = "How many?"
        answer = 1
        tolerance = 0
        hint = "One."
        why = "One."
        ```
        """)
    assert '```{ .text .mg-output title="Output" data-cell-output="" }\n1\n```' in page
    assert '\n<form class="mg-quiz" data-quiz="q" data-kind="number"' in page
    assert "```quiz" not in page


@pytest.mark.parametrize(
    "text, message",
    [
        ("```python\n1 / 0\n```\n", r"page.md, line 1: the block raised ZeroDivisionError"),
        (
            "<!-- raises KeyError -->\n```python\n1 / 0\n```\n",
            "should raise KeyError but raised ZeroDivisionError",
        ),
        ("<!-- raises KeyError -->\n```python\nx = 1\n```\n", "but raised nothing"),
        ("```graph\nmissing\n```\n", "cannot evaluate 'missing'"),
        ("```python\nx = 1\n```\n\n```graph\nx\n```\n", "'x' is not a Value but 1"),
        ("!!! note\n    ```graph\n    x\n    ```\n", "at the left margin"),
        ('```quiz\nid = "q"\n```\n', "page.md, line 1: quiz q: `question` is missing"),
        ("```source\nmicrogpt/model.py nothing\n```\n", "microgpt/model.py defines no 'nothing'"),
        ("```source\nnowhere/absent.py\n```\n", "cannot read nowhere/absent.py"),
    ],
)
def test_broken_pages_stop_the_build_with_the_line(text, message):
    with pytest.raises(lessons.LessonError, match=message):
        prepare(text)


def test_a_source_fence_shows_the_named_definitions_as_the_project_has_them():
    """A method by `Class.method`, dedented, each definition once, in the order named."""
    page = prepare("```source\nmicrogpt/model.py rmsnorm GPT.cache\n```\n")
    code = page[page.index("```python\n") + 10 : page.rindex("\n```")]
    model = (ROOT / "microgpt" / "model.py").read_text(encoding="utf-8")
    rmsnorm, cache = code.split("\n\n\n")
    assert rmsnorm.startswith("def rmsnorm(x):") and rmsnorm in model
    assert cache.startswith("def cache(self):") and textwrap.indent(cache, "    ") in model


def test_formulas_are_typeset_by_katex():
    html = markdown.markdown(
        "Inline $L = -8$ and\n\n$$\n\\frac{dL}{da} = a < b\n$$\n",
        extensions=["pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    typeset = lessons.finish(html, ROOT)
    assert '<span class="arithmatex"><span class="katex">' in typeset
    assert '<div class="arithmatex"><span class="katex-display">' in typeset
    assert "<mo>&lt;</mo>" in typeset  # the escaped `<` reached KaTeX as `<`
    assert "\\(" not in typeset and "\\[" not in typeset


def test_code_blocks_can_be_focused_to_scroll_them():
    """What scrolls is what can be focused: a block's <code>, else the <pre>; once each."""
    page = (
        '<pre><code>a</code></pre><pre class="x"><span></span><code>b</code></pre>'
        '<pre tabindex="-1">c</pre><pre>d</pre>'
    )
    finished = lessons.finish(page + "<preview>", ROOT)
    assert finished.count('<code tabindex="0"') == 2 and finished.count('tabindex="0"') == 3
    assert '<pre tabindex="0">d</pre>' in finished
    assert '<pre tabindex="-1">' in finished and "<preview>" in finished


def test_bad_tex_names_the_formula_in_one_line():
    with pytest.raises(
        prerender.PrerenderError, match=r"^KaTeX cannot render .*\\\\frac\{"
    ) as caught:
        lessons.finish('<span class="arithmatex">\\(\\frac{\\)</span>', ROOT)
    assert "\n" not in str(caught.value)


def test_katex_stylesheet_and_fonts_are_copied(tmp_path):
    lessons.copy_katex(ROOT, tmp_path)
    css = (tmp_path / lessons.KATEX_CSS).read_text()
    fonts = re.findall(r"url\((fonts/[^)]+\.woff2)\)", css)
    assert fonts and all((tmp_path / lessons.KATEX_DIR / font).is_file() for font in fonts)


@pytest.mark.parametrize(
    ("tex", "message"),
    [
        ("0.5 \times 2", r"the formula '0.5 imes 2' lost the backslash of \times: a TOML string"),
        ("\nabla f", r"the formula 'abla f' lost the backslash of \nabla"),
        ("\beta", r"lost the backslash of \beta"),
        ("x \x01", "holds the control character U+0001"),
    ],
)
def test_a_formula_that_lost_a_backslash_to_toml_stops_the_build(tex, message):
    """KaTeX typesets a tab and "imes" as "imes" without a word: the build refuses it."""
    with pytest.raises(prerender.PrerenderError, match=re.escape(message)):
        lessons.finish(f'<span class="arithmatex">\\({tex}\\)</span>', ROOT)


def test_a_formula_s_own_line_breaks_are_no_lost_escape():
    typeset = lessons.finish('<div class="arithmatex">\\[a +\nb \\neq\n\\nabla c\\]</div>', ROOT)
    assert '<span class="katex-display">' in typeset


def test_a_quiz_whose_toml_ate_a_backslash_stops_the_build():
    """The training quiz once rendered "0.5imes 0.55": its TOML string read `\\t` of `\\times`
    (and Markdown turns that tab into spaces, so the TOML's strings are where to look)."""
    quiz = """\
        ```quiz
        id = "q"
        question = "Half of two?"
        answer = 1
        tolerance = 0
        hint = "Halve it."
        why = "$0.5 \\times 2 = 1$"
        ```
        """
    message = "page.md, line 1: quiz q: `why`: the text '$0.5 imes 2 = 1$' lost the backslash"
    with pytest.raises(lessons.LessonError, match=re.escape(message)):
        prepare(quiz)
    assert "<form" in prepare(quiz.replace('"$', "'$").replace('$"', "$'"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "```python\nprint(1)\nprint(2)\n```\n\n```output\n1\n3\n```\n",
            "page.md, line 8: the ```output block shows '3' where the block at line 1 prints '2'",
        ),
        (
            "```python\nprint(1)\n```\n\n```output\n1\n2\n```\n",
            "page.md, line 7: the ```output block shows '2' where the block at line 1 prints "
            "nothing more",
        ),
        (
            "```python\nprint(1)\n```\n\nText.\n",
            "page.md, line 1: the block prints '1' but no ```output block right after it",
        ),
        (
            "```python\nprint(1)\n```\n\nText.\n\n```output\n1\n```\n",
            "page.md, line 7: an ```output block comes right after the Python block",
        ),
        (
            "```python\nx = 1\n```\n\nText.\n\n```output\n1\n```\n",
            "page.md, line 7: an ```output block comes right after the Python block",
        ),
        (
            '```python\nx = 0.25\n```\n\nIt is **≈ 0.3**{ data-check="x" }.\n',
            "page.md, line 5: the text says '≈ 0.3', but x is 0.25: write what the code gives",
        ),
        (
            '```python\nx = 0.25\n```\n\nIt is **0.2500001**{ data-check="x" }.\n',
            "page.md, line 5: the text says '0.2500001', but x is 0.25",
        ),
        (
            'It is **0.25**{ data-check="y" }.\n',
            "page.md, line 1: the claim '0.25' cannot be checked: NameError(",
        ),
        (
            '```quiz\nid = "q"\nquestion = "x?"\nanswer = 1\ntolerance = 0.1\nhint = "h"\n'
            'why = "w"\ncheck = "x"\n```\n\n```python\nx = 1.5\n```\n',
            "page.md, line 1: quiz q accepts 1 ± 0.1, but x is 1.5: give the answer it computes",
        ),
    ],
)
def test_a_page_whose_outputs_or_numbers_are_untrue_stops_the_build(text, message):
    """AUTHORING says the build stops at the first page that no longer tells the truth."""
    with pytest.raises(lessons.LessonError, match=re.escape(message)):
        prepare(text)


def test_true_outputs_numbers_and_quizzes_build():
    page = prepare(
        "```python\nx = 0.25\nprint(x)\n```\n\n```output\n0.25\n```\n\n"
        'It is **≈ 0.3**{ data-check="x + 0.01" } and **0.25**{ data-check="x" }.\n\n'
        '```quiz\nid = "q"\nquestion = "x?"\nanswer = 0.25\ntolerance = 0\nhint = "h"\n'
        'why = "w"\ncheck = "x"\n```\n'
    )
    assert '<form class="mg-quiz"' in page and 'title="Output"' in page
