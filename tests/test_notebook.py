"""runner/notebook.py: a lesson page's Python session, what each block shows, its graphs and its
claims, as the browser's runner and the build both run it."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import DOCS

from course import pagecode
from grader.exercises import load_catalog
from grader.runner_data import runner_data
from microgpt import names
from runner import drawing, notebook, sandbox
from runner.claims import claim_holds

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def session():
    return notebook.start()


def run(session, code):
    return json.loads(session.run_json(code))


def test_printed_then_the_final_expressions_repr(session):
    found = run(session, "x = 2\nprint('x is', x)\nx * 3")
    assert found == {"output": "x is 2\n6\n", "printed_lines": 1, "truncated": False, "error": None}


@pytest.mark.parametrize("code", ["None", "print('a')\nNone", "x = 1", "def f():\n    return 1\n"])
def test_none_and_statements_show_no_value(session, code):
    assert run(session, code)["output"] in ("", "a\n")


def test_names_are_kept_across_runs_and_imports_stay_imported(session):
    run(session, "from training.nn import MLP\nimport random\nrandom.seed(1)\nn = 41")
    assert run(session, "n + 1")["output"] == "42\n"
    found = run(session, "from training.nn import MLP as Again\nAgain is MLP")
    assert found["output"] == "True\n"  # the same class, not a module imported twice


def test_an_exception_is_shown_as_a_traceback_ends_at_the_blocks_own_line(session):
    run(session, "def divide(a):\n    return a / 0\n")
    found = run(session, "print('before')\nx = 1\ndivide(x)\nprint('after')")
    assert found["output"] == "before\nZeroDivisionError: division by zero\n"
    assert found["error"] == {"type": "ZeroDivisionError", "message": "division by zero", "line": 3}


def test_a_syntax_error_names_its_line(session):
    found = run(session, "a = 1\nb = (2,\n")
    assert found["error"]["type"] == "SyntaxError"
    assert found["error"]["line"] == 2
    assert found["output"] == "SyntaxError: '(' was never closed\n"


def test_a_huge_print_is_capped_and_the_error_after_it_still_shown(session):
    found = run(session, "for i in range(100_000):\n    print(i)\nraise ValueError('late')")
    assert found["truncated"] and found["printed_lines"] == 100_000
    assert len(found["output"]) < sandbox.OUTPUT_LIMIT + 100
    assert found["output"].endswith("\nValueError: late\n")
    assert found["error"]["line"] == 3


def test_a_huge_value_is_capped_too(session):
    found = run(session, "list(range(100_000))")
    assert found["truncated"] and found["output"].startswith("[0, 1, 2")
    assert len(found["output"]) == sandbox.OUTPUT_LIMIT + 1


@pytest.mark.parametrize("module", ["js", "pyodide", "pyodide_js"])
def test_javascript_is_refused_with_a_clear_message_at_its_line(session, module):
    found = run(session, f"x = 1\nimport {module}")
    assert found["error"]["line"] == 2
    assert found["error"]["message"] == (
        f"`{module}` is not available here: the page's code runs away from the page"
    )
    assert found["output"] == f"ModuleNotFoundError: {found['error']['message']}\n"


def test_a_keyboard_interrupt_is_reported_and_the_next_run_works(session):
    found = run(session, "x = 5\nraise KeyboardInterrupt")
    assert found["error"] == {"type": "KeyboardInterrupt", "message": "", "line": 2}
    assert found["output"] == "KeyboardInterrupt\n"
    assert run(session, "x")["output"] == "5\n"


def test_what_a_block_rebinds_in_the_interpreter_does_not_outlive_it(session):
    run(session, "import builtins\nbuiltins.len = lambda x: 0")
    assert run(session, "len('abc')")["output"] == "3\n"


def test_a_repr_that_raises_is_said(session):
    code = "class Odd:\n    def __repr__(self):\n        raise ValueError('no')\nOdd()"
    assert run(session, code)["output"] == "<repr failed: ValueError: no>\n"


VALUE = """\
class Value:
    def __init__(self, data, _children=(), _op="", label=""):
        self.data, self.grad, self._prev, self._op, self.label = data, 0.0, _children, _op, label

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), "*")

a = Value(2.0, label="a")
b = Value(-3.0, label="b")
e = a * b
e.label = "e"
"""


def test_a_graph_is_drawn_from_the_sessions_objects_as_the_build_draws_it(session):
    run(session, VALUE)
    namespace = {}
    exec(VALUE, namespace)
    for direction in ("LR", "TB"):
        found = json.loads(session.graph_json("e", direction))
        assert found == {
            "dot": drawing.dot(namespace["e"], direction),
            "words": drawing.describe(namespace["e"]),
        }
    run(session, "a.data = 5.0\ne = a * b\ne.label = 'e'")
    assert "data -15.0000" in json.loads(session.graph_json("e", "LR"))["dot"]
    assert json.loads(session.graph_json("a.data", "LR")) == {
        "error": "a.data is not a Value but 5.0"
    }
    assert json.loads(session.graph_json("nothing", "LR")) == {
        "error": "NameError: name 'nothing' is not defined"
    }


def test_claims_hold_by_the_builds_rule(session):
    run(session, "x = 0.123456789\ny = -8.0")
    claims = [
        {"expr": "x", "text": "≈ 0.1235"},
        {"expr": "x", "text": "0.1234568"},
        {"expr": "y", "text": "−8"},
        {"expr": "y", "text": "≈ 8"},
        {"expr": "z", "text": "1"},
        {"expr": "float('nan')", "text": "≈ 1"},
    ]
    found = json.loads(session.claims_json(json.dumps(claims)))
    assert [claim["holds"] for claim in found] == [True, True, True, False, None, False]
    assert found[5]["value"] is None
    assert found[0] == {"holds": True, "value": 0.123456789, "error": None}
    assert found[4] == {"holds": None, "value": None, "error": "NameError: name 'z' is not defined"}
    assert claim_holds("≈ 8", -8.0) is False  # the build's rule, the same answer


def test_the_page_graph_and_claims_of_a_lesson_page_are_the_builds():
    """gradients.md through a session, block by block, as the page runs it: each block's output
    is the page's own ```output block (or nothing, where it has none), each graph's DOT is the
    build's, and every claim holds in the session."""
    session = notebook.start()
    items = pagecode.parse((DOCS / "gradients.md").read_text("utf-8"))
    built = pagecode.run(items)
    graphs = claims = outputs = 0
    shown = None  # the last block's output in the session, until the page's own is met
    for item, namespace, ran in built:
        if ran is not None:
            assert shown in (None, ""), "a block printed, and the page shows no output for it"
            shown = session.run(item.body)["output"]
        elif item.kind == "output":
            assert shown.rstrip("\n") == item.body.rstrip("\n"), item
            shown, outputs = None, outputs + 1
        elif item.kind == "graph":
            expression = item.body.strip().splitlines()[0]
            drawn = json.loads(session.graph_json(expression, "TB"))
            assert drawn["dot"] == drawing.dot(eval(expression, namespace), "TB")
            graphs += 1
        elif item.kind == "claim":
            answer = json.loads(
                session.claims_json(json.dumps([{"expr": item.expr, "text": item.body}]))
            )
            assert answer[0]["holds"] is True, item
            claims += 1
    assert graphs >= 3 and claims >= 5 and outputs >= 8


HOSTILE = [
    "import js\njs.postMessage('forged')",
    "import sys\ndel sys.modules['js']\nimport js",
    "from pyodide.ffi import to_js",
    "import sys\nsys.modules.get('pyodide.webloop').scheduleCallback",
    "import sys\nsys.exit(1)",
    "def f(n):\n    return f(n + 1)\nf(0)",
]


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")
def test_pyodide_runs_a_page_as_cpython_does_and_keeps_javascript_out_of_reach():
    """A page's blocks, then hostile ones, in Pyodide (the browser's runtime, in Node): each
    shows what the build shows, and no block reaches JavaScript."""
    items = pagecode.parse((DOCS / "gradients.md").read_text("utf-8"))
    codes = [item.body for item in items if item.kind == "python"] + HOSTILE
    graphs = [item.body.split("\n")[0] for item in items if item.kind == "graph"]
    source = (
        "import json\nfrom runner.notebook import start\nsession = start()\n"
        f"runs = [session.run(code) for code in {codes!r}]\n"
        f"json.dumps([runs, [json.loads(session.graph_json(g, 'LR')) for g in {graphs!r}]])"
    )
    runs, drawn = in_pyodide(source)
    session = notebook.start()
    expected = [session.run(code) for code in codes]
    assert [run["output"] for run in runs] == [run["output"] for run in expected]
    assert [run["error"] for run in runs] == [run["error"] for run in expected]
    assert [d["dot"] for d in drawn] == [
        json.loads(session.graph_json(g, "LR"))["dot"] for g in graphs
    ]
    refused = [run["error"] for run in runs[-len(HOSTILE) : -2]]
    assert [error["type"] for error in refused] == ["ModuleNotFoundError"] * 3 + ["AttributeError"]


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")
def test_the_microgpt_pages_first_blocks_run_in_pyodide_from_the_runners_data_and_names_txt():
    """No `grader` and no `names` package in the browser's runner: the page's Value class comes
    from data.json (handed here, as the build hands it) and its names from names.txt, which the
    page's worker writes into Python's working directory."""
    known = runner_data(load_catalog())
    items = pagecode.parse((DOCS / "microgpt.md").read_text("utf-8"))
    codes = [item.body for item in items if item.kind == "python"][:2]
    written = "\n".join(names.load())
    source = (
        "import json\nfrom pathlib import Path\nfrom runner.notebook import start\n"
        f"Path('names.txt').write_text({written!r})\n"
        f"session = start(json.loads({json.dumps(known)!r}))\n"
        f"json.dumps([session.run(code) for code in {codes!r}])"
    )
    session = notebook.start(known)
    assert in_pyodide(source) == [session.run(code) for code in codes]
    assert "grader" not in codes[0] and "design_class" in codes[0]


def test_a_syntax_error_of_the_learner_s_making_has_no_line_but_an_answer():
    ran = json.loads(
        notebook.start().run_json("raise SyntaxError('made', ('<cell 1>', float('nan'), 1, ''))")
    )
    assert ran["error"]["type"] == "SyntaxError" and ran["error"]["line"] is None


def test_a_label_that_answers_replace_as_it_likes_cannot_add_to_the_dot():
    session = notebook.start()
    session.run_json(
        "class Sly(str):\n"
        "    def replace(self, *args):\n"
        "        return self\n"
        "class V:\n"
        "    _prev, _op, data, grad = (), '', 1.0, 0.0\n"
        "v = V()\n"
        'v.label = Sly(\'x", URL="https://example.org", target="_top\')'
    )
    dot = json.loads(session.graph_json("v"))["dot"]
    assert 'label="x\\", URL=\\"https://example.org\\", target=\\"_top' in dot
    assert ', URL="' not in dot


def test_a_submodule_a_block_imported_is_found_through_its_package_in_the_next():
    session = notebook.start()
    assert json.loads(session.run_json("import json.tool"))["error"] is None
    assert json.loads(session.run_json("json.tool.__name__"))["output"] == "'json.tool'\n"


def in_pyodide(source):
    """What `source`'s last expression (JSON text) gives, run in Pyodide under Node."""
    done = subprocess.run(
        ["node", str(ROOT / "tests" / "pyodide" / "run.mjs")],
        input=source,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)
