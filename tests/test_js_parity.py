"""The widget's "Show full Value class" (widget/src/scaffold.js) assembles the class exactly as
the grader does (grader/scaffold.py), for every answer the exercises know and the odd bodies."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from grader.catalog import load_catalog
from grader.report import expectations
from grader.scaffold import SLOT_LABELS, assemble, segments

ROOT = Path(__file__).resolve().parent.parent
ODD = ["", "# only a comment", "\tself.grad += 1\n\n\n", "if True:\n\tpass", "x = 1\r\ny = 2"]


def js_assemble(cases):
    """widget/src/scaffold.js's `assemble` on each `{slot: body}` of `cases`, run in Node."""
    pieces = [{"text": p[1]} if p[0] == "text" else {"slot": p[1], "indent": p[2]}
              for p in segments()]
    module = json.dumps((ROOT / "widget" / "src" / "scaffold.js").as_uri())
    script = (
        f"import {{ assemble }} from {module};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const { pieces, cases } = JSON.parse(readFileSync(0, 'utf8'));\n"
        "process.stdout.write(JSON.stringify(cases.map((b) => assemble(pieces, b).text)));\n"
    )
    run = subprocess.run(["node", "--input-type=module", "-e", script], check=True, timeout=60,
                         input=json.dumps({"pieces": pieces, "cases": cases}),
                         capture_output=True, text=True)
    return json.loads(run.stdout)


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")
def test_the_widget_assembles_the_class_as_the_grader_does():
    catalog = load_catalog()
    reference = {slot: catalog[slot].solutions[slot] for slot in SLOT_LABELS}
    cases = [reference | bodies for _, _, bodies, _, _ in expectations(catalog)]
    cases += [dict.fromkeys(SLOT_LABELS, body) for body in ODD]
    for case, shown in zip(cases, js_assemble(cases), strict=True):
        assert shown == assemble(case)[0], case
