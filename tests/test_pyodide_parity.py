"""The grader gives the same verdicts and explanations under Pyodide 314 (the browser's
runtime, run here in Node) as under CPython."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from grader import grade
from grader.catalog import load_catalog
from grader.report import expectations

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = [
    ("mul", {"mul": "import js\njs.postMessage('forged')"}),
    ("mul", {"mul": "import sys\ndel sys.modules['js']\nimport js"}),
    ("mul", {"mul": "self.grad += (other.data"}),
    ("mul", {"mul": "import sys\nsys.exit(1)"}),
    ("mul", {"mul": "def f(n):\n    return f(n + 1)\nf(0)"}),
    ("tanh", {"tanh": "for i in range(50000):\n    print(i)\nself.grad += 1"}),
    ("exp", {"exp": "import builtins\nbuiltins.round = lambda *a: 0\nself.grad += 0.0"}),
]


def comparable(result):
    """What must not differ between runtimes (floats beyond seven decimals may)."""
    rows = [(r["value"], r["got_text"], r["expected_text"], r["passed"], r["mistakes"])
            for r in result["checks"]]
    error = result["error"] and (result["error"]["type"], result["error"]["line"])
    return result["verdict"], rows, error, result["stubs"], len(result["stdout"])


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")
def test_pyodide_grades_exactly_like_cpython():
    requests = [{"exercise": e.id, "bodies": bodies}
                for e, _, bodies, _, _ in expectations(load_catalog())]
    # hostile code first: every honest answer after it must still be graded as in CPython
    requests = [{"exercise": e, "bodies": bodies} for e, bodies in HOSTILE] + requests
    run = subprocess.run(["node", str(ROOT / "tools" / "grade_in_pyodide.mjs")],
                         input=json.dumps(requests), capture_output=True, text=True,
                         check=True, timeout=300)
    in_pyodide = json.loads(run.stdout)
    assert len(in_pyodide) == len(requests)
    for request, browser in zip(requests, in_pyodide, strict=True):
        cpython = grade(request["exercise"], request["bodies"])
        assert comparable(browser) == comparable(cpython), request
