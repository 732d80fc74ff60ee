"""course/cells.py through the build: a lesson page's Python blocks become live cells, in page
order, folded ones too, with the JSON the page's Python session runs them from."""

import json
import re
from pathlib import Path

import markdown
import pytest

from course import cells, lessons, pagecode

ROOT = Path(__file__).resolve().parent.parent
# mkdocs.yml's extensions that a code block goes through
EXTENSIONS = [
    "admonition",
    "attr_list",
    "md_in_html",
    "pymdownx.details",
    "pymdownx.highlight",
    "pymdownx.superfences",
]
PAGE = """\
# Page

```python hl_lines="2"
class Value:
    def __init__(self, data, _children=(), _op="", label=""):
        self.data, self.grad, self._prev = data, 0.0, _children
        self._op, self.label = _op, label

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), "*")


x = Value(2.0, label="x")
print(x.data)
```

```output
2.0
```

That is **2.0**{ data-check="x.data" }, and **≈ 2**{ data-check="x.data" }.

??? note "Folded"

    ```python
    y = x * x
    y.label = "y"
    s = "</template><!-- & >"
    ```

```graph
y
```

<!-- raises ZeroDivisionError -->
```python
y.data / 0
```

```output
ZeroDivisionError: float division by zero
```
"""


def built(text=PAGE):
    prepared = lessons.prepare(text, "page.md", ROOT, markdown.markdown)
    return lessons.finish(markdown.markdown(prepared, extensions=EXTENSIONS), ROOT)


@pytest.fixture(scope="module")
def page():
    return built()


def lesson(page):
    return json.loads(cells.CARRIER.search(page)[1])


def test_the_lesson_json_holds_each_blocks_code_graph_and_claim(page):
    assert lesson(page) == {
        "page": "page.md",
        "cells": [
            {
                "code": PAGE.split('```python hl_lines="2"\n')[1].split("\n```")[0],
                "raises": None,
                "long": False,
            },
            {
                "code": 'y = x * x\ny.label = "y"\ns = "</template><!-- & >"',
                "raises": None,
                "long": False,
            },
            {"code": "y.data / 0", "raises": "ZeroDivisionError", "long": False},
        ],
        "graphs": [{"expr": "y", "after": 1}],
        "claims": [
            {"expr": "x.data", "text": "2.0", "after": 0},
            {"expr": "x.data", "text": "≈ 2", "after": 0},
        ],
        "time_limit": 5,
        "names": False,
    }
    assert page.count("<template") == 1 and "</template><!--" not in page
    assert "<script" not in page  # instant navigation would run it as code


def test_every_block_is_a_cell_in_page_order_with_its_output(page):
    found = re.findall(r'<div class="mg-cell" data-cell="(\d+)" data-cell-state="idle">', page)
    assert found == ["0", "1", "2"]
    assert page.index("data-lesson") < page.index('data-cell="0"')
    first, folded, broken = page.split('<div class="mg-cell" ')[1:]
    assert '<span class="hll">' in first  # hl_lines kept
    assert '<span class="filename">Output</span>' in first and "data-cell-output" in first
    assert folded.index(cells.EMPTY_OUTPUT) > folded.index("</code></pre></div>")
    assert "ZeroDivisionError: float division by zero" in broken.split("data-cell-output")[1]
    assert page.count("<details") == 1 and page.index("<details") < page.index('data-cell="1"')


def test_graphs_and_claims_are_numbered_in_page_order(page):
    assert re.findall(r'data-graph="(\d+)"', page) == ["0"]
    assert re.findall(r'<strong data-check="x.data" data-claim="(\d+)">', page) == ["0", "1"]


def test_a_cell_lost_in_conversion_stops_the_build(page):
    prepared = lessons.prepare(PAGE, "page.md", ROOT, markdown.markdown)
    lost = markdown.markdown(prepared, extensions=EXTENSIONS).replace('data-mg-cell="1"', "")
    with pytest.raises(lessons.LessonError, match=r"3 Python blocks .* the cells \[0, 2\]"):
        lessons.finish(lost, ROOT)
    assert lessons.finish(page, ROOT) == page  # a finished page is finished once


def test_a_page_importing_microgpt_is_handed_its_names_and_the_course_s_time_limit():
    text = "```python\nfrom microgpt.names import load\n```\n\n```python\nx = 1\n```\n"
    prepared = lessons.prepare(text, "page.md", ROOT, markdown.markdown, time_limit=7)
    found = lesson(lessons.finish(markdown.markdown(prepared, extensions=EXTENSIONS), ROOT))
    assert found["names"] is True and found["time_limit"] == 7


def test_a_block_importing_a_package_the_page_s_python_lacks_stops_the_build():
    text = "# Page\n\n```python\nimport math\nfrom grader.exercises import load_catalog\n```\n"
    with pytest.raises(lessons.LessonError, match=r"^page.md, line 3: the block imports grader"):
        built(text)
    built(text.replace("grader.exercises import load_catalog", "runner.value_class import data"))


def test_a_page_without_python_has_no_cells():
    assert "data-lesson" not in built("# Page\n\nText.\n\n```text\nx\n```\n")


def test_a_claim_on_inline_code_is_numbered_too():
    text = '```python\nx = 1\n```\n\nA `1`{ data-check="x" } and **1**{ data-check="x" }.\n'
    page = built(text)
    assert '<code data-check="x" data-claim="0">1</code>' in page
    assert '<strong data-check="x" data-claim="1">1</strong>' in page


def test_a_lesson_pages_blocks_graphs_and_claims_are_all_marked():
    """gradients.md as the build makes it (every page is held to the same when it is built:
    `cells.wrap` stops a build whose cells are not all there, in order)."""
    text = (ROOT / "docs" / "gradients.md").read_text("utf-8")
    items = pagecode.parse(text)
    page = built(text)
    blocks = [item.body for item in items if item.kind == "python"]
    found = lesson(page)
    assert [cell["code"] for cell in found["cells"]] == blocks
    assert re.findall(r'data-cell="(\d+)"', page) == [str(i) for i in range(len(blocks))]
    assert len(found["graphs"]) == page.count("data-graph=") == 3
    assert len(found["claims"]) == page.count("data-claim=") == text.count("data-check=")
    assert page.count("data-cell-output") == len(blocks)


def test_a_block_marked_runs_long_is_long_and_an_unmarked_long_one_stops_the_build(monkeypatch):
    busy = "import time\nend = time.thread_time() + 0.3\nwhile time.thread_time() < end:\n    pass"
    text = f"<!-- runs long -->\n```python\n{busy}\n```\n\n```python\nx = 1\n```\n"
    monkeypatch.setattr(lessons, "UNMARKED_MAX_S", 0.2)
    assert [cell["long"] for cell in lesson(built(text))["cells"]] == [True, False]
    with pytest.raises(lessons.LessonError, match=r"^page.md, line 1: the block took 0\.\d s"):
        built(text.removeprefix("<!-- runs long -->\n"))
