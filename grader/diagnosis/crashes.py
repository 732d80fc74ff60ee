"""Why the learner's code raised, in their terms: each family of crash the grader can tell
apart from the error, the line it happened on and the code, with the fix, never the solution.

`crash(error, exercise, body)` returns `(key, sentence)` or None; the keys are diagnoses of
grader/diagnosis/explain.py. Each sentence names the learner's line.
"""

import ast
import re

from .cues import code_cues, is_attribute

# modules a learner may reach for that the course's Python does not have
THIRD_PARTY = ("numpy", "scipy", "torch", "jax", "sympy", "pandas")
COMPARED = re.compile(r"'(?:<|<=|>|>=)' not supported between instances of '(\w+)' and '(\w+)'")
NO_ATTRIBUTE = re.compile(r"'(int|float|bool)' object has no attribute '(data|grad)'")
UNBOUND = re.compile(r"local variable '(\w+)'")
OPENED = re.compile(r"expected an indented block after '?(\w+)'? .*?on line (\d+)")
BRACKET = re.compile(r"was never closed|unmatched|does not match opening")
VALUES = ("self", "other", "out")  # the Values an op's code can name
ARITHMETIC = ("ZeroDivisionError", "OverflowError", "ValueError")


def crash(error, exercise, body):
    """`(key, sentence)` for the family of `error` (a result.Error), or None."""
    where = f"Line {error.line} of your `{error.label}` code" if error.line else "Your code"
    for family in FAMILIES:
        found = family(error, exercise, body, where)
        if found:
            return found
    return None


def _indented(error, exercise, body, where):
    """Each way indentation goes wrong has its own fix: a block opened and not indented under,
    an indent where none belongs, a line matching no level above it, tabs among spaces."""
    if error.type not in ("IndentationError", "TabError"):
        return None
    opened = OPENED.search(error.message)
    if opened:
        keyword, line = opened.groups()
        if error.line == int(line):
            problem, fix = "nothing follows it", "write the lines of the block below it"
        else:
            problem, fix = "the next line is not indented under it", "indent the block's lines"
        return "indented", (
            f"Line {line} of your `{error.label}` code opens a block (the `{keyword}` line ends "
            f"in `:`), and {problem}: {fix}, four spaces more than the line that opens it."
        )
    if error.type == "TabError":
        return "indented", f"{where} mixes tabs and spaces: indent with spaces only."
    if "unindent" in error.message:
        return "indented", (
            f"{where} is indented by a number of spaces that no line above it uses: line it up "
            "with the other lines of its block."
        )
    return "indented", (
        f"{where} is indented where Python does not expect it. Start at the left margin (the "
        "editor is already inside the function) and indent only the lines inside a block."
    )


def _unclosed(error, exercise, body, where):
    if error.type != "SyntaxError" or not BRACKET.search(error.message):
        return None
    return "unclosed_bracket", f"{where} has a bracket that is never closed, or closed twice."


def _statement_for_tuple(error, exercise, body, where):
    if error.type != "SyntaxError" or exercise.design != "local_grads":
        return None
    return "tuple_expected", (
        f"{where} is not an expression: this tab takes one, the tuple of local gradients, "
        "such as `(a, b)`, with no `=` and no `.grad`."
    )


def _unbound(error, exercise, body, where):
    found = UNBOUND.search(error.message) if error.type == "UnboundLocalError" else None
    if not found:
        return None
    name = found.group(1)
    value = name if name in ("self", "other", "out") else "self"
    return "assigned_local", (
        f"{where} assigns to `{name}` itself, which makes `{name}` a name of the closure's own, "
        f"read before it has a value. Add to a Value's gradient instead: `{value}.grad += ...`."
    )


def _attribute(error, exercise, body, where):
    found = NO_ATTRIBUTE.search(error.message) if error.type == "AttributeError" else None
    if not found:
        return None
    attribute = found.group(2)
    if error.slot == "pow" and re.search(rf"\bother\.{attribute}\b", error.source_line):
        return "exponent_is_a_number", (
            f"{where} reads `other.{attribute}`, but in `__pow__` `other` is the exponent, a "
            "plain number: use `other` itself. The exponent gets no gradient."
        )
    found = _number_name(body, error.source_line, attribute)
    if found:
        value, number = found
        what = f"a number (`{value}.data`)"
    else:  # a number the method itself set, such as `x`, `t` or `s`
        named = re.search(
            rf"\b(?!self\b|other\b|out\b)([A-Za-z_]\w*)\.{attribute}\b", error.source_line
        )
        if not named:
            return None
        value, number, what = "self", named.group(1), "a number"
    return "number_for_value", (
        f"{where} reads `{number}.{attribute}`, but `{number}` is {what}, which has no "
        f"`.{attribute}`: the Value is `{value}`."
    )


def _number_name(body, source_line, attribute):
    """`(value, name)` when the line reads `name.attribute` and the body set `name` to
    `value.data` (as `x = self.data`), else None."""
    try:
        tree = ast.parse(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if not isinstance(target, ast.Name) or not is_attribute(value, "data", VALUES):
            continue
        if re.search(rf"\b{re.escape(target.id)}\.{attribute}\b", source_line):
            return value.value.id, target.id
    return None


def _compared(error, exercise, body, where):
    found = COMPARED.search(error.message) if error.type == "TypeError" else None
    if not found or "Value" not in found.groups():
        return None
    return "compare_value", (
        f"{where} compares a Value with a number: compare the number it holds, its `.data`."
    )


def _imported(error, exercise, body, where):
    module = (error.name or "").partition(".")[0]
    if error.type != "ModuleNotFoundError" or module not in THIRD_PARTY:
        return None
    also = " or `out.data`" if exercise.design == "closures" else ""
    return "standard_library_only", (
        f"{where} imports `{module}`, but the course's Python has the standard library only. "
        f"Use `math` (`math.exp`, `math.tanh`, `math.log`){also}."
    )


def _grad_read(error, exercise, body, where):
    if error.type not in ARITHMETIC or "grad_for_data" not in code_cues(body):
        return None
    return "grad_for_data", f"{where} raised {error.type}: a `.grad` it reads is still 0 there."


FAMILIES = (
    _indented,
    _unclosed,
    _statement_for_tuple,
    _unbound,
    _attribute,
    _compared,
    _imported,
    _grad_read,
)
