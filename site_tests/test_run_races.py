"""Runs that overlap: Run pressed again during a run, a tab switch during a run, two widgets on
one page sharing its one Python, and an instant page change during a run. No result is lost or
shown in the wrong place, and nothing stays "running"."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from learner import Learner
from playwright.sync_api import expect

from devtools import serve
from grader import grade

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "index.md": """\
        # Two widgets

        ```exercise
        add mul
        ```

        ```exercise
        pow tanh
        ```

        [Another page](other.md)
        """,
    "other.md": """\
        # Another page

        ```exercise
        exp
        ```

        [Back](index.md)
        """,
}
# about a second of work, once per run (the body runs once per check)
SLOW = "global slow\ntry:\n    slow\nexcept NameError:\n    slow = sum(range(3 * 10**7))\n"
LOOP = "while True:\n    pass\n"


@pytest.fixture(scope="module")
def races_site(tmp_path_factory):
    """A small course built for the address it is served at, so instant navigation is on."""
    project = tmp_path_factory.mktemp("races")
    (project / "docs").mkdir()
    for name, text in PAGES.items():
        (project / "docs" / name).write_text(textwrap.dedent(text))
    with serve.start(project / "site") as running:
        (project / "mkdocs.yml").write_text(
            f"site_name: races\nsite_url: {running.url}\n"
            "theme:\n  name: material\n  font: false\n  features: [navigation.instant]\n"
            "extra_javascript:\n  - path: assets/course/widget.js\n    type: module\n"
            "extra_css:\n  - assets/course/widget.css\n"
            "plugins:\n  - course\n"
            f"markdown_extensions:\n  - pymdownx.superfences\n  - course:\n      root: {ROOT}\n"
            "      every_exercise_shown: false\n"  # a small course: a few exercises
        )
        mkdocs = Path(sys.executable).with_name("mkdocs")
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        subprocess.run([str(mkdocs), "build", "--quiet"], cwd=project, env=env, check=True)
        yield running


@pytest.fixture
def page_of_two(fresh_page, races_site):
    """The page with two widgets, on a `fresh_page`: `(first, second)`, learners at each."""
    first = Learner(fresh_page(site_url=races_site.url), races_site.url)
    first.page.goto(races_site.url)
    second = Learner(first.page, races_site.url)
    second.widget = first.page.locator("[data-exercise-widget]").nth(1)
    expect(second.tab("tanh")).to_be_visible()
    first.wait_until_python_ready()
    return first, second


def nothing_running(learner):
    expect(learner.page.locator('[aria-busy="true"]')).to_have_count(0)
    expect(learner.page.get_by_role("button", name="Stop")).to_have_count(0)


def test_run_pressed_again_during_a_run_shows_the_latest_run(page_of_two, exercises):
    first, _ = page_of_two
    first.open_tab("__mul__")
    first.write(SLOW + exercises["mul"].solutions["mul"])
    first.start_run()
    first.write("self.grad += 0.0\n")
    assert first.run() == "fail"
    # the first run's runner is ended, a new spare ready: no stray result can come after this
    first.python_settled()
    assert first.result.get_attribute("data-verdict") == "fail"
    assert grade("mul", {"mul": "self.grad += 0.0\n"})["summary"] in first.result_text()
    nothing_running(first)


def test_switching_tabs_during_a_run_loses_no_result(page_of_two, exercises):
    first, _ = page_of_two
    first.open_tab("__mul__")
    first.write(SLOW + exercises["mul"].solutions["mul"])
    first.start_run()
    assert first.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    first.open_tab("__mul__")
    assert first.verdict() == "pass"
    assert first.passed_mark_visible("__mul__") and first.passed_mark_visible("__add__")
    nothing_running(first)


def test_two_widgets_share_python_without_mixing_results(page_of_two, exercises):
    first, second = page_of_two
    first.open_tab("__mul__")
    first.write(SLOW + exercises["mul"].solutions["mul"])
    first.start_run()
    second.open_tab("__pow__")
    second.write("self.grad += 0.0\n")
    second.start_run()
    second.open_tab("tanh")
    second.write(exercises["tanh"].solutions["tanh"])
    second.start_run()
    second.stop()  # the tanh run, still waiting for its turn, does not start
    assert "Stopped You pressed Stop." in second.result_text()
    assert first.verdict() == "pass"
    second.open_tab("__pow__")
    assert second.verdict() == "fail"
    assert first.passed_mark_visible("__mul__") and not second.passed_mark_visible("__pow__")
    nothing_running(first)


def test_an_instant_page_change_during_a_run_does_not_hold_up_the_next_page(
    fresh_page, races_site, exercises
):
    learner = Learner(fresh_page(site_url=races_site.url), races_site.url)
    page = learner.page
    page.goto(races_site.url)
    learner.open_tab("__mul__")
    learner.write(LOOP)
    learner.start_run()
    page.evaluate("window.sameDocument = true")
    page.get_by_role("article").get_by_role("link", name="Another page").click()
    other = Learner(page, None)
    expect(other.tab("exp")).to_be_visible()
    assert page.evaluate("window.sameDocument"), "the page was reloaded, not swapped"
    # the loop left behind is stopped, not waited for until its time limit
    assert other.solve("exp", exercises["exp"].solutions["exp"]) == "pass"
    assert [
        reason
        for reason in page.evaluate(
            'performance.getEntriesByName("python-recovery").map((e) => e.detail.reason)'
        )
    ] == ["left"]
    page.go_back()
    expect(learner.tab("__mul__")).to_be_visible()
    nothing_running(learner)
