"""The codebase's own rule of shape, for Python as ESLint's `max-lines-per-function` holds it for
the widget's JavaScript: a function that grows past a screen is split into named parts."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ("grader", "runner", "training", "microgpt", "course", "devtools", "bench", "bytecode")
MOST_LINES = 60


def functions(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


def test_no_python_function_is_longer_than_a_screen():
    files = [path for folder in SOURCE for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) > 50  # the folders are where they were
    long = [
        f"{path.relative_to(ROOT)}:{line} {name} ({count} lines)"
        for path in files
        for name, line, count in functions(path)
        if count > MOST_LINES
    ]
    assert long == []
