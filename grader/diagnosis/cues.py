"""What a learner's body says about itself, read from its code without running it.

Numbers cannot tell every mistake apart: a closure that reads `other.grad` where
`other.data` belongs and one that does nothing both leave zeros on a fresh graph. These cues
break such ties and explain code that does nothing at all.
"""

import ast
import builtins
import keyword
import re

NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
CALLS = {"backward": "calls_backward", "_backward": "calls_closure"}  # a method called: the cue
FACTORS = (ast.Mult, ast.Pow, ast.Div)


def code_cues(body):
    """The cues of `body`: a set of diagnosis keys it points at (grader/diagnosis/explain.py)."""
    try:
        tree = ast.parse(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    cues = set()
    nodes = list(ast.walk(tree))
    if any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) for node in nodes):
        cues.add("nested_def")
    for node in nodes:
        method = node.func if isinstance(node, ast.Call) else None
        if isinstance(method, ast.Attribute) and method.attr in CALLS:
            cues.add(CALLS[method.attr])
        factors = (node.left, node.right) if isinstance(node, ast.BinOp) else ()
        if isinstance(getattr(node, "op", None), FACTORS) and any(map(_reads_input_grad, factors)):
            cues.add("grad_for_data")
    if any(_assigns_grad(node) for node in nodes):
        cues.add("assign")
    targets = [target for node in nodes for target in _targets(node)]
    attributes = [target.attr for target in targets if isinstance(target, ast.Attribute)]
    if "data" in attributes:
        cues.add("data_changed")
    if targets and "grad" not in attributes and "data" not in attributes:
        cues.add("local_only")
    return cues


def _reads_input_grad(node):
    """`self.grad` or `other.grad`, read as a factor (where a `.data` would belong)."""
    return is_attribute(node, "grad", ("self", "other"))


def is_attribute(node, attribute, names):
    """Whether the AST `node` is `name.attribute` for one of `names` (`out.data`, say)."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == attribute
        and isinstance(node.value, ast.Name)
        and node.value.id in names
    )


def _assigns_grad(node):
    """`x.grad = ...` with `=`, not adding to what is there (`x.grad = x.grad + ...` adds)."""
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return False
    target = node.targets[0]
    if not (isinstance(target, ast.Attribute) and target.attr == "grad"):
        return False
    return ast.dump(target, annotate_fields=False).replace("Store", "Load") not in {
        ast.dump(part, annotate_fields=False) for part in ast.walk(node.value)
    }


def _targets(node):
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    return []


def builtin_names(source_line, scope):
    """Names on `source_line` that are Python builtins the op's code never defines."""
    found = []
    for name in NAME.findall(source_line.partition("#")[0]):
        if name in scope or keyword.iskeyword(name) or name in found:
            continue
        if (
            hasattr(builtins, name)
            and not name[0].isupper()
            and name not in ("True", "False", "None")
        ):
            found.append(name)
    return found
