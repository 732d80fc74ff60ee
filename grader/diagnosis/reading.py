"""How Python reads a line of the learner's code that a person may read otherwise: `=+` (an
assignment of a signed number, not `+=`), the order in which operators bind, and `//` (floor
division). Each is told with the learner's own expression as Python groups it, from its syntax
tree, and only where that grouping is not what the learner wrote already: a slip of Python gets
Python's answer, never the right formula.
"""

import ast
import re

from .cues import is_attribute

SYMBOLS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.BitXor: "^",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
MULTIPLYING = (ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.MatMult)
SIGNS = {ast.UAdd: "+", ast.USub: "-", ast.Not: "not ", ast.Invert: "~"}
COMPARISONS = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
# a sign binds less tightly than `**`, more than `*` and `/`
SIGNED = 3
# what binds more loosely than any operator, so needs brackets inside one
LOOSE = (ast.Compare, ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)
# an assignment's `=` straight before a sign: what `+=` or `-=` typed backwards looks like
EQUALS_SIGN = re.compile(r"^\s*=([+-])(?!=)")


def reading(body, keys):
    """`(sentence, covers)`: how Python reads the learner's `body` where it may be read
    otherwise, and the diagnosis keys that sentence says better; `("", ())` when nothing
    reads otherwise. `keys` are what the numbers showed ([] when nothing explained them)."""
    try:
        tree = ast.parse(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "", ()
    signed, sign = _signed_assignment(tree, body)
    if signed:
        return signed, ("assign", *(["opposite_sign"] if sign == "-" else []))
    floor = next((n for n in ast.walk(tree) if _is(n, ast.FloorDiv)), None)
    if floor is not None:
        return (
            f"Python's `//` is floor division: `{_source(body, floor)}` rounds the quotient down "
            "to a whole number (`1 // 2.0` is `0.0`). Division is `/`."
        ), ()
    loose = next((n for n in ast.walk(tree) if _holds_arithmetic(n, body)), None)
    # told where the numbers are unexplained, or where it explains them better than they do
    if loose is not None and (not keys or set(_upstream_in(loose)) & set(keys)):
        return _loose_sentence(body, loose), _upstream_in(loose)
    mixed = None if keys else next((n for n in _expressions(tree) if _mixes(n, body)), None)
    if mixed is not None:
        return (
            f"Python groups `{_source(body, mixed)}` as `{grouped(mixed)}`: `**` binds first, "
            "then a sign, then `*` and `/`, then `+` and `-`. If you meant another grouping, "
            "add brackets."
        ), ()
    return "", ()


def grouped(node, top=True):
    """`node` as Python groups it, every operation inside another one in brackets."""
    if isinstance(node, ast.BinOp):
        text = f"{grouped(node.left, False)} {SYMBOLS[type(node.op)]} {grouped(node.right, False)}"
    elif isinstance(node, ast.UnaryOp):
        text = f"{SIGNS[type(node.op)]}{grouped(node.operand, False)}"
    elif isinstance(node, ast.Compare):
        parts = [grouped(node.left, False)]
        for operator, right in zip(node.ops, node.comparators, strict=True):
            parts += [COMPARISONS[type(operator)], grouped(right, False)]
        text = " ".join(parts)
    elif isinstance(node, ast.IfExp):
        branches = grouped(node.body, False), grouped(node.orelse, False)
        text = f"{branches[0]} if {grouped(node.test)} else {branches[1]}"
    else:
        text = ast.unparse(node)
        if not isinstance(node, LOOSE):
            return text
    return text if top else f"({text})"


def _signed_assignment(tree, body):
    """`(sentence, sign)`: `x.grad =+ share` (or `=-`), told as Python reads it: only the
    assignment's own `=` counts, never one inside it (`f(a=-1)`)."""
    lines = body.splitlines()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if target.end_lineno != node.value.lineno:
            continue
        found = EQUALS_SIGN.search(lines[target.end_lineno - 1][target.end_col_offset :])
        if not found:
            continue
        line, name, sign = _source(body, node), ast.unparse(target), found.group(1)
        meant = "Adding is `+=`" if sign == "+" else "Subtracting is `-=`, and adding `+=`"
        return (
            f"Python reads `{line}` as `{name} = {grouped(node.value)}`: `=` and then a "
            f"`{sign}` sign, which sets `{name}` to that number and drops what it held. "
            f"{meant}, the sign first."
        ), sign
    return "", ""


def _expressions(tree):
    """The right-hand sides and tuple items the learner wrote, outermost first."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            yield node.value
        elif isinstance(node, ast.Expr):
            value = node.value
            yield from value.elts if isinstance(value, ast.Tuple) else [value]


def _holds_arithmetic(node, body):
    """Whether a comparison or an `if`-`else` holds, without brackets of the learner's, an
    operation that a reader may take to bind last (`x > 0 * out.grad`, `1 if x > 0 else 0 * g`):
    Python binds it first."""
    if isinstance(node, ast.Compare):
        parts = [node.left, *node.comparators]
    elif isinstance(node, ast.IfExp):
        parts = [node.body, node.orelse]
    else:
        return False
    return any(isinstance(part, ast.BinOp) and not _bracketed(body, part) for part in parts)


def _loose_sentence(body, node):
    if isinstance(node, ast.Compare):
        how = "arithmetic binds before a comparison, which then gives True or False (1 or 0)"
    else:
        how = "`if` and `else` bind last, so each branch is everything on its side"
    return (
        f"Python groups `{_source(body, node)}` as `{grouped(node)}`: {how}. If you meant "
        "another grouping, add brackets."
    )


def _upstream_in(node):
    """The diagnoses a grouping says better: `out.grad` read where it multiplies nothing that
    reaches the grad is not `out.grad` left out."""
    reads = any(is_attribute(part, "grad", ("out",)) for part in ast.walk(node))
    return ("no_upstream",) if reads else ()


def _bracketed(body, node):
    """Whether the learner wrote `node` inside brackets of its own."""
    raw = body.encode()
    lines = raw.splitlines(keepends=True)
    start = sum(map(len, lines[: node.lineno - 1])) + node.col_offset
    end = sum(map(len, lines[: node.end_lineno - 1])) + node.end_col_offset
    return raw[:start].rstrip().endswith(b"(") and raw[end:].lstrip().startswith(b")")


def _mixes(node, body):
    """Whether a sum, a difference or a sign holds, without brackets of the learner's, what a
    reader may group otherwise: a product (`1 - t**2 * g`), a power on its left whose exponent
    is a name (`x ** n - 1`), or a power under a sign (`-x ** 2`). `1 - t**2`, `t**2 - 1` and
    chains of products read as Python reads them: no one takes `t**2 - 1` for `t**(2 - 1)`."""
    for parent in ast.walk(node):
        parts = [c for c in _operands(parent) if not _bracketed(body, c)]
        if isinstance(parent, ast.UnaryOp) and any(_is(c, ast.Pow) for c in parts):
            return True
        if not (_is(parent, ast.Add) or _is(parent, ast.Sub)):
            continue
        left = parent.left if parent.left in parts else None
        power = _is(left, ast.Pow) and not isinstance(left.right, ast.Constant)
        if power or any(_binding(c) == 2 for c in parts):
            return True
    return False


def _operands(node):
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    return [node.operand] if isinstance(node, ast.UnaryOp) else []


def _binding(node):
    """2 for a product or a quotient, SIGNED for a sign, None otherwise (what `_mixes` asks)."""
    if isinstance(node, ast.BinOp):
        return 2 if isinstance(node.op, MULTIPLYING) else None
    return SIGNED if isinstance(node, ast.UnaryOp) else None


def _is(node, operator):
    return isinstance(node, ast.BinOp) and isinstance(node.op, operator)


def _source(body, node):
    return " ".join((ast.get_source_segment(body, node) or ast.unparse(node)).split())
