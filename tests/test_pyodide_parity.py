"""The grader gives the same verdicts and explanations under Pyodide 314 (the browser's
runtime, run here in Node) as under CPython, Pyodide starting from the build's trimmed standard
library (course/assets.py) alone, as the browser does; what a learner imports that it lacks
comes from the full one."""

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from course import assets
from grader import grade
from grader.exercises import expectations, load_catalog

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = [
    ("mul", {"mul": "import js\njs.postMessage('forged')"}),
    ("mul", {"mul": "import sys\ndel sys.modules['js']\nimport js"}),
    ("mul", {"mul": "import sys\nsys.modules.get('pyodide.webloop').scheduleCallback"}),
    ("mul", {"mul": "self.grad += (other.data"}),
    ("mul", {"mul": "import sys\nsys.exit(1)"}),
    ("mul", {"mul": "def f(n):\n    return f(n + 1)\nf(0)"}),
    ("tanh", {"tanh": "for i in range(50000):\n    print(i)\nself.grad += 1"}),
    ("exp", {"exp": "import builtins\nbuiltins.round = lambda *a: 0\nself.grad += 0.0"}),
    ("mul", {"mul": "self.grad += float('nan')\nother.grad = 10**400"}),
    ("mul", {"mul": "class E(Exception):\n    def __str__(self):\n        1/0\nraise E()"}),
    ("mul", {"mul": "e = ImportError('x')\ne.name = 5\nraise e"}),
    ("mul", {"mul": "import sys\nsys.stdout.write(12)\nself.grad += 1"}),
    (
        "mul",
        {
            "mul": "# a\u2028b\x85c\fd\nself.grad += other.data * out.grad\n"
            "other.grad += self.data * out.grad"
        },
    ),
]


def comparable(result):
    """What must not differ between runtimes (floats beyond seven decimals may): the verdict,
    rows, diagnoses, the error's place, and each check's graph and step-through."""
    rows = [
        (r["value"], r["got_text"], r["expected_text"], r["passed"], r["diagnoses"])
        for check in result["checks"]
        for r in check["rows"]
    ]
    graphs = [(check["nodes"], check["steps"]) for check in result["checks"]]
    error = result["error"] and (result["error"]["type"], result["error"]["line"])
    return (
        result["verdict"],
        rows,
        graphs,
        error,
        result["stubs"],
        result["diagnoses"],
        result["diagnosis"],
        len(result["stdout"]),
    )


def requests():
    answers = [
        {"exercise": e.id, "bodies": bodies} for e, _, bodies, _, _ in expectations(load_catalog())
    ]
    # hostile code first: every honest answer after it must still be graded as in CPython
    return [{"exercise": e, "bodies": bodies} for e, bodies in HOSTILE] + answers


def grade_in_pyodide(requests, *options, log=None):
    """The results of `requests` graded in Pyodide; what it printed on stderr goes to `log`."""
    run = subprocess.run(
        ["node", str(ROOT / "tests" / "pyodide" / "grade.mjs"), *options],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    if log is not None:
        log.append(run.stderr)
    results = json.loads(run.stdout)
    assert len(results) == len(requests)
    return results


@pytest.fixture(scope="module")
def trimmed_stdlib():
    """The build's trimmed standard library, built as `mkdocs build` builds it."""
    return assets.compiled_archives(ROOT, load_catalog()) / assets.STDLIB_ZIP


@pytest.fixture(scope="module")
def in_pyodide(trimmed_stdlib):
    """Every request graded in Pyodide from the trimmed standard library, with no fallback to
    the full one: it must suffice alone."""
    return grade_in_pyodide(requests(), "--stdlib", str(trimmed_stdlib))


pytestmark = pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")


def test_pyodide_grades_exactly_like_cpython(in_pyodide):
    for request, browser in zip(requests(), in_pyodide, strict=True):
        cpython = grade(request["exercise"], request["bodies"])
        assert comparable(browser) == comparable(cpython), request


# modules the trimmed standard library lacks: a module, a package's submodule, a whole package
NOT_TRIMMED = ["statistics", "json.tool", "email.message"]


def importing(module):
    """The reference answer to mul, after an import of `module`."""
    body = f"import {module}\n" + load_catalog()["mul"].solutions["mul"]
    return {"exercise": "mul", "bodies": {"mul": body}}


def test_what_the_trimmed_stdlib_lacks_comes_from_the_full_one(trimmed_stdlib):
    asks = [importing(module) for module in NOT_TRIMMED]
    alone = grade_in_pyodide(asks, "--stdlib", str(trimmed_stdlib))
    assert [r["error"] and r["error"]["type"] for r in alone] == ["ModuleNotFoundError"] * 3
    log = []
    with_fallback = grade_in_pyodide(asks, "--stdlib", str(trimmed_stdlib), "--fallback", log=log)
    assert with_fallback == grade_in_pyodide(asks)
    assert [r["verdict"] for r in with_fallback] == ["pass"] * 3
    assert log[0].count("fetched the full standard library") == 1


def test_a_module_no_stdlib_has_fetches_nothing(trimmed_stdlib):
    log = []
    [result] = grade_in_pyodide(
        [importing("no_such_module")], "--stdlib", str(trimmed_stdlib), "--fallback", log=log
    )
    assert result["error"]["type"] == "ModuleNotFoundError"
    assert "fetched" not in log[0]


def test_the_archives_are_compiled_and_the_same_at_every_build(trimmed_stdlib, tmp_path):
    """Sources left out; the same bytes from a second build, so browsers keep them cached."""
    catalog = load_catalog()
    runner, grader = tmp_path / "runner.zip", tmp_path / "grader.zip"
    runner.write_bytes(assets.runner_sources(ROOT, catalog))
    grader.write_bytes(assets.grader_sources(ROOT, catalog))
    again = tmp_path / "again"
    again.mkdir()
    zips = ["--runner-zip", str(runner), "--grader-zip", str(grader), "--out-dir", str(again)]
    run = subprocess.run(
        ["node", "bytecode/build.mjs", *zips], cwd=ROOT, capture_output=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    built = trimmed_stdlib.parent
    for name in (assets.STDLIB_ZIP, assets.RUNNER_ZIP, assets.GRADER_ZIP):
        assert (again / name).read_bytes() == (built / name).read_bytes(), name
    with zipfile.ZipFile(again / assets.STDLIB_ZIP) as archive:
        names = archive.namelist()
    assert names and all(name.endswith(".pyc") for name in names)
    assert "_stdlib_fallback.pyc" in names
