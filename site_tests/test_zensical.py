"""The course built by Zensical (Material's successor, which runs no MkDocs plugin) from the same
docs/ and mkdocs.yml, then finished by the site step (`python -m course.site`): a learner's
journey through it in Chromium, as on the MkDocs build.

Zensical keeps its site inside the project's folder, so the build is of a copy of docs/ and
mkdocs.yml, whose `course` settings point back at this repository (`root`).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, assert_clean, learner_at
from learner import as_read
from playwright.sync_api import expect

from devtools import serve
from grader.diagnosis.explain import DIAGNOSES

OPS = ("add", "mul", "pow", "tanh", "exp", "relu")
BIN = Path(sys.executable).parent


def zensical_build(project):
    """docs/ and mkdocs.yml copied into `project`, built by Zensical and finished by the site
    step: the site's folder."""
    shutil.copytree(ROOT / "docs", project / "docs")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    settings = f"  - course:\n      root: {ROOT}\n"
    assert "  - course:\n" in config, "mkdocs.yml lists the course's extension with settings"
    (project / "mkdocs.yml").write_text(config.replace("  - course:\n", settings, 1))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for command in (
        [str(BIN / "zensical"), "build", "--clean"],
        [sys.executable, "-m", "course.site"],
    ):
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return project / "site"


# session-scoped: pytest runs the test that needs no browser apart from the browser's, and a
# module fixture would be built again for the others
@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory):
    site = zensical_build(tmp_path_factory.mktemp("zensical"))
    with serve.start(site) as running:
        yield site, running


@pytest.fixture(scope="module")
def journey(browser, zensical_site):
    """One learner on the Zensical build's exercise page, for the module's tests in order."""
    _, running = zensical_site
    learner, watch, close = learner_at(browser, running.url + "exercises/")
    yield learner.open()
    close()
    assert_clean(watch)


def test_the_pages_are_the_course_s(zensical_site):
    """Every page of the nav is built, with its widgets, formulas and graphs, and the site step
    gave each its policy and the exercise page its early start."""
    site, _ = zensical_site
    exercises = (site / "exercises" / "index.html").read_text(encoding="utf-8")
    assert "data-exercise-widget" in exercises and "<script data-worker=" in exercises
    for page in ("training", "microgpt", "backward"):
        assert (site / page / "index.html").is_file()
    backward = (site / "backward" / "index.html").read_text(encoding="utf-8")
    assert 'class="katex"' in backward and 'class="mg-graph"' in backward
    for page in site.rglob("*.html"):
        assert 'http-equiv="Content-Security-Policy"' in page.read_text(encoding="utf-8"), page


@pytest.mark.parametrize("op", OPS)
def test_every_tab_passes_with_its_reference(journey, exercises, op):
    exercise = exercises[op]
    assert journey.solve(exercise.label, exercise.solutions[op]) == "pass"
    assert journey.passed_mark_visible(exercise.label)


def test_equals_for_plus_equals_fails_with_its_explanation(journey, exercises):
    wrong = next(a for a in exercises["add"].known_wrong if a.diagnoses == ("assign",))
    assert journey.solve("__add__", wrong.bodies["add"]) == "fail"
    assert as_read(DIAGNOSES["assign"]) in journey.result_text()


def test_a_syntax_error_names_the_learners_line(journey):
    assert journey.solve("__add__", "self.grad += out.grad\nother.grad += (") == "error"
    text = journey.result_text()
    assert "SyntaxError" in text and "line 2" in text


def test_the_diamond_passes_and_a_reload_keeps_the_work(journey, exercises):
    journey.solve("__add__", exercises["add"].solutions["add"])
    journey.open_tab("diamond")
    assert journey.run() == "pass"
    journey.reload()
    journey.open_tab("__mul__")
    expect(journey.editor).to_contain_text(exercises["mul"].solutions["mul"].splitlines()[0])
    assert journey.passed_mark_visible("__mul__")
