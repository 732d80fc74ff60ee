"""A lesson page's Python session, as a notebook runs one: the page's blocks share one namespace,
in the order they run, and each shows what it printed, the repr of a final bare expression (not
None), and an exception's last line. The browser's runner worker holds one per page (`start()`);
the build runs every page's blocks through one too (course/pagecode.py), so the output a page
shows before any run is the output its session gives.

`Notebook.run_json(code)` answers, as JSON:

    {"output": "...",            # printed, then the expression's repr, then `Type: message`
     "printed_lines": int,       # every line written, where output keeps a beginning
     "truncated": bool,          # output capped as a graded run's (runner/sandbox.py)
     "error": null or {"type": "ZeroDivisionError", "message": "...", "line": n or null}}

`line` is 1-based within the block: the innermost frame of the block's own code, or where a
SyntaxError is. A block runs as graded code does (runner/sandbox.py): output capped, Pyodide's
JavaScript modules hidden (`import js` fails at its line, saying why), the interpreter's modules
put back afterwards, but for the modules the block imported, which the session keeps.
`graph_json` draws a page's graph (runner/drawing.py) and `claims_json` checks its numbers in
the prose (runner/claims.py) from the session's objects.
"""

import ast
import json
import math
import traceback
from contextlib import contextmanager

from .claims import claim_holds
from .drawing import describe, dot
from .errors import MAX_TEXT, message_of
from .sandbox import OUTPUT_LIMIT, CappedOutput, guarded, reaches_javascript
from .value_class import handed


def start(known=None):
    """A new session. `known` is what `runner.value_class.data()` gives the page's code: the
    browser's runner reads data.json; the build, in CPython, hands grader/runner_data.py's."""
    return Notebook(known)


class Notebook:
    """One page's namespace, and the blocks run in it."""

    def __init__(self, known=None):
        self.known = known
        self.namespace = {"__name__": "__main__"}
        self.runs = 0  # each block gets a filename of its own, to find its lines in a traceback

    def run_json(self, code):
        return json.dumps(self.run(code))

    def run(self, code):
        """Run one block: the dict `run_json` encodes."""
        self.runs += 1
        filename = f"<cell {self.runs}>"
        output = CappedOutput()
        error, shown = None, None
        with guarded(output, keep_imports=True), handed(self.known):
            try:
                value = _execute(code, filename, self.namespace)
                if value is not None:
                    shown = _repr(value)
            except BaseException as raised:  # noqa: BLE001 - the learner's code may raise anything
                error = _described(raised, filename)
        printed = output.text()
        # past the printout's cap too, capped in its turn: the value or the error is what the
        # learner asked for
        after = [shown] if shown is not None else [error.pop("last")] if error else []
        if after and printed and not printed.endswith("\n"):
            printed += "\n"
        return {
            "output": printed + "".join(text[:OUTPUT_LIMIT] + "\n" for text in after),
            "printed_lines": output.lines(),
            "truncated": output.truncated or any(len(text) > OUTPUT_LIMIT for text in after),
            "error": error,
        }

    def graph_json(self, expression, direction="LR"):
        """The page's graph of `expression` (a `Value`), as the build draws it: `{"dot",
        "words"}`, or `{"error"}` saying why not."""
        with self._guarded():
            drawn = self._drawn(expression, direction)
        return json.dumps(drawn)  # once the guard has put json back, as a run's answer is

    def _drawn(self, expression, direction):
        try:
            root = eval(expression, self.namespace)  # the page's own expression, e.g. `L`
            if not hasattr(root, "_prev"):
                return {"error": f"{expression} is not a Value but {_repr(root)}"}
            way = "TB" if direction == "TB" else "LR"
            return {"dot": dot(root, way), "words": describe(root)}
        except BaseException as raised:  # noqa: BLE001 - the learner's objects may raise
            return {"error": _last_line(raised)}

    def claims_json(self, claims_json):
        """For `[{"expr", "text"}]`, whether each still holds in this session: `[{"holds",
        "value", "error"}]`, with the rule the build holds the page to."""
        claims = json.loads(claims_json)
        with self._guarded():
            checked = [self._claim(claim) for claim in claims]
        return json.dumps(checked)

    def _claim(self, claim):
        try:
            value = float(eval(claim["expr"], self.namespace))
            holds = bool(claim_holds(claim["text"], value))
            shown = value if math.isfinite(value) else None  # JSON has no NaN, nor infinity
            return {"holds": holds, "value": shown, "error": None}
        except BaseException as raised:  # noqa: BLE001 - the learner's objects may raise
            return {"holds": None, "value": None, "error": _last_line(raised)}

    @contextmanager
    def _guarded(self):
        """Reading the session's objects runs the learner's code too (a property, a repr)."""
        with guarded(CappedOutput()), handed(self.known):
            yield


def _execute(code, filename, namespace):
    """Run `code` in `namespace`; the value of its last statement if that is a bare expression."""
    tree = ast.parse(code, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), filename, "eval"), namespace)


def _described(error, filename):
    """The exception as `run` reports it, with `last`, the output's last line (as a traceback
    ends)."""
    line = error.lineno if isinstance(error, SyntaxError) and filename == error.filename else None
    if line is None:
        try:
            frames = traceback.extract_tb(error.__traceback__)
            line = next((f.lineno for f in reversed(frames) if f.filename == filename), None)
        except Exception:  # noqa: BLE001 - a traceback of the learner's making
            line = None
    line = line if type(line) is int else None  # a SyntaxError of the learner's making: any
    message = message_of(error.msg if isinstance(error, SyntaxError) else error)
    last = _last_line(error)
    name = getattr(error, "name", None) if isinstance(error, ImportError) else None
    if reaches_javascript(name):
        message = f"`{name}` is not available here: the page's code runs away from the page"
        last = f"{type(error).__name__}: {message}"
    return {"type": type(error).__name__, "message": message, "line": line, "last": last}


def _last_line(error):
    """The last line of the exception's traceback, `Type: message`, as Python prints it."""
    try:
        return traceback.format_exception_only(error)[-1].rstrip("\n")[:MAX_TEXT]
    except Exception:  # noqa: BLE001 - an exception whose __str__ raises
        return type(error).__name__


def _repr(value):
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001 - a learner's __repr__ may raise
        return f"<repr failed: {_last_line(error)}>"
    return text if type(text) is str else "<unprintable>"
