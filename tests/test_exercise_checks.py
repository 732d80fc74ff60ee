"""course/exercise_checks.py: the build refuses an exercise whose reference solution fails its
own checks, or whose words lost a backslash to TOML, naming the file and the fix."""

import re
import shutil
import subprocess
import sys

import pytest

from course.exercise_checks import ExerciseCheckError, check_exercises
from grader.exercises import EXERCISES_DIR, load_catalog


@pytest.fixture
def course(tmp_path):
    """A course folder holding a copy of the exercises, to break."""
    shutil.copytree(EXERCISES_DIR, tmp_path / "exercises")
    return tmp_path


def refused(course, message):
    with pytest.raises(ExerciseCheckError, match=f"^{re.escape(message)}"):
        check_exercises(load_catalog(course / "exercises"))


def test_the_course_s_own_exercises_pass():
    check_exercises(load_catalog())


def test_a_reference_that_fails_its_checks_is_named_with_its_first_wrong_gradient(course):
    solution = course / "exercises" / "mul" / ".meta" / "solution.py"
    solution.write_text(solution.read_text().replace("* out.grad", "", 1))
    refused(
        course,
        "exercises/mul/.meta/solution.py: the reference solution fails its own checks: "
        "for x * y with x = -1.5, y = 4.0, out.grad = 0.5, x.grad is 4.0000000 where "
        '2.0000000 is right; fix the solution (learners see it under "Show solution"',
    )


def test_a_reference_that_raises_is_named_with_its_error(course):
    (course / "exercises" / "local-exp" / ".meta" / "solution.py").write_text("(undefined,)\n")
    refused(course, "exercises/local-exp/.meta/solution.py: the reference solution does not pass")


def test_a_checker_s_reference_is_named_as_its_own_file(course):
    solution = course / "exercises" / "gradient-check" / ".meta" / "solution.py"
    solution.write_text(solution.read_text().replace("2 * h", "h", 1))
    refused(course, "exercises/gradient-check/.meta/solution.py: the reference solution ")
    with pytest.raises(ExerciseCheckError, match="; fix the solution "):
        check_exercises(load_catalog(course / "exercises"))


def test_a_hint_whose_toml_ate_a_backslash_is_named(course):
    toml = course / "exercises" / "mul" / "exercise.toml"
    text = toml.read_text()
    toml.write_text(text.replace('"∂out/∂self = other,', '"$\\\\frac{a}{b}$, $a \\times b$,', 1))
    refused(course, "exercises/mul/exercise.toml: hint 3: the text ")
    with pytest.raises(ExerciseCheckError, match=re.escape("lost the backslash of \\times")):
        check_exercises(load_catalog(course / "exercises"))


def test_mkdocs_says_it_in_one_line(course):
    """As the build stops: the plugin's one line, not a traceback."""
    solution = course / "exercises" / "add" / ".meta" / "solution.py"
    solution.write_text("self.grad += out.grad\n")
    (course / "docs").mkdir()
    (course / "docs" / "index.md").write_text("# Page\n")
    (course / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - course\nmarkdown_extensions:\n  - course\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=course,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "exercises/add/.meta/solution.py: the reference solution fails" in done.stderr
