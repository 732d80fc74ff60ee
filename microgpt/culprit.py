"""Which op's local gradients are wrong: each op microgpt uses, measured by a nudge.

A step's graph is built again with every node marked with the op that made it; for a few nodes
of each op, every local gradient its tuple gave is held against the central difference
(f(x + h) − f(x − h)) / 2h of the op itself, computed by the same class. An op whose tuple
disagrees is the culprit when training goes wrong; when none disagrees, the training loop is.
"""

from . import model
from .names import encode
from .session import finite

# the methods of the ops microgpt's graph is made of, and each one's tab
OPS = {
    "__add__": "add",
    "__mul__": "mul",
    "__pow__": "pow",
    "log": "log",
    "exp": "exp",
    "relu": "relu",
}
NODES_PER_OP = 40  # how many of each op's nodes are measured
H = 1e-6  # the nudge, relative to the input's size
TOLERANCE = 1e-4  # relative: a central difference is good to ~1e-9 here; a wrong tuple, far worse


def disagreements(session, name=None):
    """For each op whose tuple disagrees with a nudge, the first node where it does: `{"op",
    "inputs", "given", "measured"}`, in the order of OPS. The graph is the loss of `name` (the
    last step's by default) on the model as it is; nothing in the session changes."""
    value = type(session.parameters[0])
    originals = {method: getattr(value, method) for method in OPS}
    try:
        for method, op in OPS.items():
            setattr(value, method, _marking(originals[method], op))
        total, _ = model.loss(session.model, encode(name or session.name or session.names[0]))
    finally:
        for method, original in originals.items():
            setattr(value, method, original)
    nodes = {op: [] for op in OPS.values()}
    for node in _graph(total):
        op, _ = getattr(node, "_made_by", (None, None))
        if op and len(nodes[op]) < NODES_PER_OP:
            nodes[op].append(node)
    found = []
    for method, op in OPS.items():
        for node in nodes[op]:
            wrong = _measure(value, originals[method], node)
            if wrong:
                found.append({"op": op, **wrong})
                break
    return found


def _marking(method, op):
    def marked(self, *args):
        out = method(self, *args)
        out._made_by = (op, args)
        return out

    return marked


def _graph(root):
    """Every node under `root`, each once, without recursion (the graph is deep)."""
    seen, stack, order = {id(root)}, [root], []
    while stack:
        node = stack.pop()
        order.append(node)
        for child in node._children:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return order


def _measure(value, method, node):
    """The first of `node`'s local gradients that a nudge of that input disagrees with, or None."""
    _, args = node._made_by
    inputs = [child.data for child in node._children]
    given = list(node._local_grads)
    if len(given) != len(inputs):
        return {"inputs": inputs, "given": _numbers(given), "measured": None}
    for i, x in enumerate(inputs):
        h = H * max(1.0, abs(x))
        if node._made_by[0] == "relu" and abs(x) <= h:
            continue  # relu has no derivative at its kink
        try:
            up, down = (method(*_nudged(value, inputs, args, i, x + step)).data for step in (h, -h))
        except (ArithmeticError, ValueError):
            continue  # log near 0: the nudge leaves the op's domain
        measured = (up - down) / (2 * h)
        local = given[i].data if isinstance(given[i], value) else given[i]
        if not finite(measured):
            continue
        if not finite(local) or abs(local - measured) > TOLERANCE * max(1.0, abs(measured)):
            return {"inputs": inputs, "given": _numbers(given), "measured": measured, "input": i}
    return None


def _nudged(value, inputs, args, i, x):
    """The op's arguments with input `i` at `x`: new Values of the inputs' data, and the
    exponent of a power as it was."""
    fresh = [value(data) for data in inputs]
    fresh[i] = value(x)
    return fresh if len(fresh) > 1 or not args else [fresh[0], *args]


def _numbers(given):
    return [g if isinstance(g, (int, float)) else repr(g) for g in given]
