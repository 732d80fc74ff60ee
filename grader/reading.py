"""How Python reads a line of the learner's code that a person may read otherwise: `=+` (an
assignment of a signed number, not `+=`), the order in which operators bind, and `//` (floor
division). Each is told with the learner's own expression as Python groups it, from its syntax
tree: a slip of Python gets Python's answer, never the right formula.
"""

import ast
import re

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
    signed = _signed_assignment(tree, body)
    if signed:
        return signed, ("assign",)
    floor = next((n for n in ast.walk(tree) if _is(n, ast.FloorDiv)), None)
    if floor is not None:
        return (
            f"Python's `//` is floor division: `{_source(body, floor)}` rounds the quotient down "
            "to a whole number (`1 // 2.0` is `0.0`). Division is `/`."
        ), ()
    mixed = None if keys else next((n for n in _expressions(tree) if _mixes(n)), None)
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
    else:
        text = ast.unparse(node)
        if not isinstance(node, LOOSE):
            return text
    return text if top else f"({text})"


def _signed_assignment(tree, body):
    """`x.grad =+ share` (or `=-`), told as Python reads it: only the assignment's own `=`
    counts, never one inside it (`f(a=-1)`)."""
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
        )
    return ""


def _expressions(tree):
    """The right-hand sides and tuple items the learner wrote, outermost first."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            yield node.value
        elif isinstance(node, ast.Expr):
            value = node.value
            yield from value.elts if isinstance(value, ast.Tuple) else [value]


def _mixes(node):
    """Whether a sum, a difference or a sign holds, without brackets, what a reader may group
    otherwise: a product (`1 - t**2 * g`), a power on its left (`x ** n - 1`), or a power
    under a sign (`-x ** 2`). `1 - t**2` and chains of products read as Python reads them."""
    for parent in ast.walk(node):
        if isinstance(parent, ast.UnaryOp) and _is(parent.operand, ast.Pow):
            return True
        if not (_is(parent, ast.Add) or _is(parent, ast.Sub)):
            continue
        if _is(parent.left, ast.Pow) or any(_binding(c) == 2 for c in _operands(parent)):
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
