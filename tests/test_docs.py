"""The lesson pages tell the truth.

Every Python block of `docs/` runs, in order, one namespace per page (the conventions are in
`course/pagecode.py`); each output block shows exactly what the block above it prints; blocks
marked as broken raise the error they are marked with; every number the prose claims agrees
with the code; every graph names a `Value`; every quiz is well formed, and a numeric quiz's
answer agrees with the page's own demonstration.
"""

import re

import pytest
from conftest import DOCS, page_run

from course import pagecode, prerender, quiz
from runner.claims import claim_holds

PAGES = sorted(DOCS.rglob("*.md"))


def pairs(path):
    """Each Python block with the output block that follows it (or None)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    items = pagecode.parse(text)
    shown = {}
    for before, item in zip(items, items[1:], strict=False):
        if item.kind != "output":
            continue
        between = lines[before.end : item.line - 1]
        assert before.kind == "python" and not any(line.strip() for line in between), (
            f"{path.name}, line {item.line}: an output block must come right after a Python block"
        )
        shown[before.line] = item.body
    return shown


def ids(path):
    return path.relative_to(DOCS).as_posix()


@pytest.mark.parametrize("path", PAGES, ids=ids)
def test_every_block_runs_and_shows_what_it_prints(path):
    """Outputs are what Python prints; unmarked blocks raise nothing, marked ones raise."""
    shown = pairs(path)
    for item, ran in page_run(path).blocks:
        where = f"{path.name}, block at line {item.line}"
        if item.raises is None:
            assert ran.error is None, f"{where} raised {ran.shown()}"
        else:
            assert (ran.error or {}).get("type") == item.raises, (
                f"{where} is marked `raises {item.raises}` but raised {ran.error!r}"
            )
        if item.line in shown:
            assert ran.shown().rstrip("\n") == shown[item.line].rstrip("\n"), (
                f"{where}: the page shows\n{shown[item.line]}\nbut the block prints\n{ran.shown()}"
            )
        else:
            assert not ran.shown(), f"{where} prints {ran.shown()!r} but the page does not show it"


@pytest.mark.parametrize("path", PAGES, ids=ids)
def test_numbers_in_the_prose_agree_with_the_code(path):
    """Each `**text**{ data-check="expr" }` holds where it stands on the page."""
    for item, value in page_run(path).claims:
        assert not isinstance(value, Exception), f"{path.name}, line {item.line}: {value!r}"
        assert claim_holds(item.body, value), (
            f"{path.name}, line {item.line}: the text says {item.body!r}, "
            f"but {item.expr} is {value!r}"
        )


@pytest.mark.parametrize("path", PAGES, ids=ids)
def test_graphs_name_a_value(path):
    """Each graph fence's first line evaluates, where it stands, to a `Value`."""
    for item, root in page_run(path).graphs:
        assert hasattr(root, "_prev") and hasattr(root, "data"), (
            f"{path.name}, line {item.line}: {root!r} is not a Value"
        )


@pytest.mark.parametrize("path", PAGES, ids=ids)
def test_quizzes_are_sound(path):
    """Quizzes parse; a numeric quiz's `check` evaluates, after the page ran, to its answer."""
    for parsed, value in page_run(path).checks:
        assert (
            not isinstance(value, Exception)
            and abs(value - parsed["answer"]) <= parsed["tolerance"]
        ), (
            f"{path.name}: quiz {parsed['id']} accepts {parsed['answer']} ± "
            f"{parsed['tolerance']}, but {parsed['check']} is {value!r}"
        )


@pytest.mark.parametrize("path", PAGES, ids=ids)
def test_no_quiz_formula_lost_a_backslash_to_its_toml(path):
    """`"$0.5 \\times 2$"` in a TOML string holds a tab: KaTeX would show "0.5imes 2"."""
    for item in pagecode.parse(path.read_text(encoding="utf-8")):
        if item.kind == "quiz":
            for text in strings(quiz.parse(item.body)):
                for formula in re.findall(r"\$\$?([^$]+)\$", text):
                    problem = prerender.lost_escape(formula)
                    assert problem is None, f"{path.name}, quiz at line {item.line}: {problem}"


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict | list):
        for inner in value.values() if isinstance(value, dict) else value:
            yield from strings(inner)


def test_the_course_has_its_quizzes_and_numbers():
    """The checks above are not vacuous: the pages hold claims, graphs and both kinds of quiz."""
    items = [item for path in PAGES for item in pagecode.parse(path.read_text(encoding="utf-8"))]
    kinds = [item.kind for item in items]
    assert kinds.count("claim") >= 10
    assert kinds.count("graph") >= 3
    quizzes = [quiz.parse(item.body) for item in items if item.kind == "quiz"]
    assert {q["kind"] for q in quizzes} == {"choice", "number"} and len(quizzes) >= 4
    assert all("check" in q for q in quizzes if q["kind"] == "number")


def test_the_pages_workflow_builds_with_the_address_pages_gives_the_site():
    import yaml

    workflow = yaml.safe_load((DOCS.parent / ".github" / "workflows" / "pages.yml").read_text())
    steps = workflow["jobs"]["build"]["steps"]
    build = next(step for step in steps if step.get("run") == "make build")
    assert build["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    assert any(step.get("id") == "pages" for step in steps[: steps.index(build)])
    upload = next(step for step in steps if "upload-pages-artifact" in step.get("uses", ""))
    assert upload["with"]["path"] == "site"


COURSE = "runner|grader|microgpt|training|course"  # the course's own packages
COURSE_IMPORT = re.compile(rf"^\s*(?:from|import) (?:{COURSE})\b", re.M)


def test_start_here_names_every_page_whose_code_needs_the_course_s_own():
    """Start here says the lessons' blocks run in plain Python but on the pages it names: those
    are exactly the pages whose blocks import the course's own packages."""
    needing = {
        ids(path)
        for path in PAGES
        for item in pagecode.parse(path.read_text(encoding="utf-8"))
        if item.kind == "python" and COURSE_IMPORT.search(item.body)
    }
    start = (DOCS / "index.md").read_text(encoding="utf-8")
    said = re.search(r"\*\*The lessons are ordinary pages.*?\n\n", start, re.S).group()
    assert "Python session" in said and needing
    assert set(re.findall(r"\]\(([\w/-]+\.md)\)", said)) == needing
