"""course/spoilers.py: no page shows an exercise's answer, in any notation, before the place that
asks for it, unless the exercise declares the page its worked example; the build stops in one
line naming the page and the exercise."""

import dataclasses
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course.options import read_nav
from course.spoilers import SpoilerError, check_spoilers
from course.widget_data import widget_data

ROOT = Path(__file__).resolve().parent.parent
# sigmoid's answer in other names than its reference's `s * (1 - s)`, and a checker's
# `numerical_grad` under another name: the grader passes both, so the rule must catch both
SIGMOID = """
```python
def sigmoid(self):
    out = Value(1 / (1 + math.exp(-self.data)), (self,), "sigmoid")

    def _backward():
        self.grad += out.data * (1 - out.data) * out.grad

    out._backward = _backward
    return out
```
"""
OWN_NAMES = """
```python
def sigmoid(self):
    sig = 1 / (1 + math.exp(-self.data))
    out = Value(sig, (self,), "sigmoid")

    def _backward():
        self.grad += sig * (1 - sig) * out.grad

    out._backward = _backward
    return out
```
"""
MEASURE = """
??? note "A measuring tool"

    ```python
    def measure(g, at, step):
        return (g(at + step) - g(at - step)) / (step * 2)
    ```
"""
RELU_TUPLE = """
```python
def relu(self):
    x = self.data
    return Value(max(0, x), (self,), (1.0 if x > 0 else 0.0,))
```
"""
QUIZ = """
```quiz
id = "spoiled"
question = "Which tuple does `exp` store?"

[[option]]
text = "`(math.exp(self.data),)`"
correct = true
why = "Its own derivative."

[[option]]
text = "`(x,)`"
why = "That is the input."
```
"""


def course(tmp_path, page=None, block=""):
    """A copy of the course's pages, with `block` added at the end of `page`'s first section."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    if page:
        text = (docs / page).read_text()
        first = text.index("\n## ")
        (docs / page).write_text(text[:first] + "\n" + block + text[first:])
    return docs, read_nav(ROOT / "mkdocs.yml")[1]


def test_today_s_pages_ask_before_they_show(exercises):
    check_spoilers(*read_nav(ROOT / "mkdocs.yml"), exercises, ROOT)


@pytest.mark.parametrize(
    ("page", "block", "exercise"),
    [
        ("value.md", SIGMOID, "sigmoid"),
        ("graph.md", OWN_NAMES, "sigmoid"),  # a name of its own, assigned by its method
        ("gradients.md", MEASURE, "gradient-check"),
        ("exercises.md", RELU_TUPLE, "local-relu"),
        ("nn.md", "Its tuple is `(1 / x,)`.\n", "local-log"),
        ("training.md", QUIZ, "local-exp"),
    ],
)
def test_an_answer_above_its_exercise_stops_the_build_in_one_line(
    tmp_path, exercises, page, block, exercise
):
    docs, nav = course(tmp_path, page, block)
    with pytest.raises(SpoilerError) as raised:
        check_spoilers(docs, nav, exercises, ROOT)
    message = str(raised.value)
    assert "\n" not in message
    shown = "(a (folded )?code block|inline code|a quiz)"
    assert re.match(rf"^docs/{re.escape(page)}:\d+: {shown} shows ", message)
    assert f"the answer of exercise {exercise} before docs/" in message


def test_a_wrong_answer_or_one_below_its_exercise_is_no_spoiler(tmp_path, exercises):
    wrong = SIGMOID.replace("self.grad +=", "self.grad =")  # `=` for `+=`: the checks catch it
    docs, nav = course(tmp_path, "value.md", wrong)
    check_spoilers(docs, nav, exercises, ROOT)
    docs, nav = course(tmp_path / "after", "find-the-bug.md", SIGMOID + MEASURE)
    check_spoilers(docs, nav, exercises, ROOT)


def test_another_tab_s_starter_counts_as_shown(tmp_path, exercises):
    answer = "self.grad += s * (1 - s) * out.grad\n"  # on the log tab, beside sigmoid's
    log = dataclasses.replace(exercises["log"], stubs={"log": answer})
    with pytest.raises(
        SpoilerError, match=r"the starter of tab log shows the answer of exercise sigmoid"
    ):
        check_spoilers(*course(tmp_path), exercises | {"log": log}, ROOT)


def test_a_worked_example_is_declared_and_must_be_shown(tmp_path, exercises):
    sigmoid = dataclasses.replace(exercises["sigmoid"], example="The Value object")
    docs, nav = course(tmp_path, "value.md", SIGMOID)
    check_spoilers(docs, nav, exercises | {"sigmoid": sigmoid}, ROOT)
    with pytest.raises(SpoilerError, match=r"does not show its answer above the exercise"):
        check_spoilers(*course(tmp_path / "none"), exercises | {"sigmoid": sigmoid}, ROOT)
    early = dataclasses.replace(sigmoid, example="Gradients by hand")  # value.md comes before
    with pytest.raises(
        SpoilerError, match=rf"^{re.escape('docs/value.md')}:\d+: a code block shows"
    ):
        check_spoilers(docs, nav, exercises | {"sigmoid": early}, ROOT)
    unknown = dataclasses.replace(sigmoid, example="No such page")
    with pytest.raises(SpoilerError, match=r"is no page of mkdocs.yml's nav"):
        check_spoilers(docs, nav, exercises | {"sigmoid": unknown}, ROOT)


def test_mkdocs_stops_in_one_line_naming_page_and_exercise(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nnav:\n  - Start: index.md\n  - One: one.md\n"
        f"plugins:\n  - course\nmarkdown_extensions:\n  - course:\n      root: {ROOT}\n"
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Start\n" + SIGMOID)
    (tmp_path / "docs" / "one.md").write_text("# One\n\n```exercise\nsigmoid\n```\n")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    start, one = (re.escape(f"docs/{page}.md") for page in ("index", "one"))
    assert re.search(
        rf"{start}:\d+: a code block shows the answer of exercise sigmoid before {one}:3 asks",
        done.stderr,
    )


def test_a_find_the_bug_editor_folds_every_op_tab_s_closure_until_it_passes(exercises):
    """The engines show every op's finished closure; each is folded as a spoiler while its tab
    is unpassed (widget/src/editor/folds.js finds it under its method), so the data names every
    op tab of the design, its version, and a method the starter defines with a closure."""
    ops = {e.id: e for e in exercises.values() if e.kind == "op" and e.design == "closures"}
    engines = [e for e in exercises.values() if e.kind == "engine"]
    data = widget_data([e.id for e in engines], exercises, lambda text: text)
    for tab in data["exercises"]:
        starter = tab["stubs"]["engine"]
        assert {fold["id"] for fold in tab["folds"]} == set(ops)
        for fold in tab["folds"]:
            assert fold["version"] == ops[fold["id"]].version
            method = re.search(
                rf"\n    def {re.escape(fold['label'])}\(.*?\n    def ", starter, re.S
            )
            assert method and "        def _backward():\n            " in method[0]
