"""Rules the page needs before Python loads, written in JavaScript too, held to the Python:
the page's "Show full Value class" and its list of ops still at their starter code
(widget/src/shared/scaffold.js) against grader/scaffold.py, for every known answer and for odd
bodies and line breaks; the results the page makes (widget/src/exercise/page-results.js)
against the grader's Result; and which widgets a page opened from disk replaces, against the
build's list of those that run Python."""

import json
import subprocess
from dataclasses import fields
from pathlib import Path

from course import assets
from course.widget_data import widget_data
from grader.exercises import expectations, load_catalog
from grader.result import Result
from grader.scaffold import assemble, labels
from runner.assembly import is_stub

ROOT = Path(__file__).resolve().parent.parent
ODD = [
    "",
    "# only a comment",
    "\tself.grad += 1\n\n\n",
    "if True:\n\tpass",
    "x = 1\r\ny = 2",
    "x = 1\ry = 2",
    "# a\u2028b\nself.grad += 1",
    "s = 'a\fb'\x85",
    "pass\n",
    "  \n \t\n",
    "x = '\u2029'  # \x1c",
    "\ufeffself.grad += 1",
    "é\tself.grad = 1",
]


def node(script, data):
    """Runs `script` (an ES module) in Node with `data` as JSON on stdin; its JSON output."""
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=ROOT,
    )
    return json.loads(run.stdout)


def module(path):
    return json.dumps((ROOT / path).as_uri())


def test_the_page_assembles_every_design_as_the_grader_does():
    catalog = load_catalog()
    designs = widget_data([e.id for e in catalog.values()], catalog, lambda text: text)["designs"]
    cases = []
    for design in designs:  # every design some exercise completes
        reference = {op: "" for op in labels(design)}
        for exercise in catalog.values():
            if exercise.design == design and exercise.kind == "op":
                reference |= exercise.solutions
        cases += [
            (design, reference | bodies)
            for exercise, _, bodies, _, _ in expectations(catalog)
            if exercise.design == design
        ]
        cases += [(design, dict.fromkeys(labels(design), body)) for body in ODD]
    script = (
        f"import {{ assemble }} from {module('widget/src/shared/scaffold.js')};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const { designs, cases } = JSON.parse(readFileSync(0, 'utf8'));\n"
        "const out = cases.map(([design, bodies]) => assemble(designs[design], bodies).text);\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    shown = node(script, {"designs": designs, "cases": cases})
    for (design, bodies), text in zip(cases, shown, strict=True):
        assert text == assemble(design, bodies)[0], (design, bodies)


def test_the_page_tells_starter_code_as_the_grader_does():
    stub = "# out = self + other\npass\n"
    bodies = [*ODD, stub, stub.strip(), stub + "\n\n", "self.grad += 1", "# changed\npass"]
    script = (
        f"import {{ isStub }} from {module('widget/src/shared/scaffold.js')};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const { stub, bodies } = JSON.parse(readFileSync(0, 'utf8'));\n"
        "process.stdout.write(JSON.stringify(bodies.map((body) => isStub(body, stub))));\n"
    )
    assert node(script, {"stub": stub, "bodies": bodies}) == [is_stub(b, stub) for b in bodies]


def test_the_page_makes_results_with_the_grader_s_keys():
    script = (
        f"import {{ pageResult }} from {module('widget/src/exercise/page-results.js')};\n"
        "const result = pageResult({ exercise: 'mul', verdict: 'stopped', summary: '' });\n"
        "process.stdout.write(JSON.stringify(Object.keys(result)));\n"
    )
    assert sorted(node(script, {})) == sorted(field.name for field in fields(Result))


def test_a_page_opened_from_disk_replaces_every_widget_the_build_starts_python_for():
    """The <head>'s early start is inlined where a Python widget is (course/assets.py); from
    disk it puts its message in place of the same widgets (widget/src/page/from-disk.js)."""
    script = (
        f"import {{ PYTHON_WIDGETS }} from {module('widget/src/page/from-disk.js')};\n"
        "process.stdout.write(JSON.stringify(PYTHON_WIDGETS));\n"
    )
    selectors = {selector.strip() for selector in node(script, {}).split(",")}
    assert selectors == {f"[{widget}]" for widget in assets.PYTHON_WIDGETS}
