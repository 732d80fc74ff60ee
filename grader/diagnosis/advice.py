"""Diagnoses said with what the learner's own code holds, where the numbers alone would point
the wrong way: the Value they put where a number belongs, named (`self`, never a name the op
does not have), and a share that misses the factor `out.grad`, told apart by the code: left out,
or read and lost, and whether the rest of the share is right.

`advice(body, keys, op, design)` returns `(sentence, covers)`, as grader/diagnosis/reading.py
does: the diagnosis keys its sentence says instead of their general words
(grader/diagnosis/explain.py).
"""

import ast

from ..ops import OPS
from .cues import is_attribute
from .explain import not_a_number_words, values_of

# diagnoses that say the local derivative itself is wrong (besides each op's own)
WRONG_LOCAL = {"opposite_sign", "grad_for_data", "nothing"}


def advice(body, keys, op, design):
    """`(sentence, covers)` for one op's code whose numbers showed `keys`."""
    try:
        tree = ast.parse(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "", ()
    said, covers = [], []
    if "not_a_number" in keys:
        used = bare_values(tree, values_of(design, [op]))
        if used:
            said.append(not_a_number_words(design, used))
            covers.append("not_a_number")
    if "no_upstream" in keys:
        if reads_upstream(tree):
            said.append(
                "Your code reads `out.grad`, but the share it adds does not change with it: by "
                "the chain rule `out.grad` multiplies the whole local derivative."
            )
            covers.append("no_upstream")
        elif not any(key in WRONG_LOCAL or key in OPS[op].wrong for key in keys):
            said.append(
                "The local derivative in your code is right, and `out.grad` is missing: by the "
                "chain rule it multiplies the local derivative, and here `out.grad` is not 1, so "
                "leaving it out shows."
            )
            covers.append("no_upstream")
    return " ".join(said), tuple(covers)


def values_used(exercise, bodies):
    """The Values the exercise's code uses as they are (where a number may belong), each op's
    own; when none does, every Value its ops can name."""
    found = []
    for op in exercise.ops:
        try:
            found += bare_values(ast.parse(bodies[op]), values_of(exercise.design, [op]))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return list(dict.fromkeys(found)) or values_of(exercise.design, exercise.ops)


def upstream_missing(body):
    """Whether no `out.grad` reaches a grad in `body` (False for code that is not Python)."""
    try:
        return not reads_upstream(ast.parse(body))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def bare_values(tree, values):
    """The names of `values` (Values the op's code can name) that the code uses as they are,
    not through `.data` or `.grad`, in the order it first does."""
    based = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    used = [
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id in values and id(node) not in based
    ]
    return list(dict.fromkeys(used))


def reads_upstream(tree):
    """Whether `out.grad` is in an expression that reaches a grad: added or assigned to one,
    directly or through names the code assigned from it."""
    carriers, grown = set(), True  # names holding something made from out.grad
    while grown:
        grown = False
        for node in ast.walk(tree):
            value, targets = _assigned(node)
            if value is None or not _carries(value, carriers):
                continue
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "grad":
                    return True
                names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
                grown = grown or not names <= carriers
                carriers |= names
    return False


def _assigned(node):
    if isinstance(node, ast.Assign):
        return node.value, node.targets
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return node.value, [node.target]
    return None, []


def _carries(value, carriers):
    return any(
        is_attribute(part, "grad", ("out",)) or (isinstance(part, ast.Name) and part.id in carriers)
        for part in ast.walk(value)
    )
