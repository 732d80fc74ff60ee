"""The answer key: gradients from each op's closed-form local derivatives (grader/ops.py),
never from any learner's or reference body.

A `Node` mirrors the scaffolds' Value: the same ops build the same graph, and the nodes are
met in the same order (runner/graph.py), so the judge can line its nodes up with the runner's.
"""

from runner.graph import topological

from .ops import OPS, Args


class Node:
    def __init__(self, data, operands=(), op=None, exponent=None):
        self.data = data
        self.grad = 0.0
        self.operands = operands
        self._prev = tuple(dict.fromkeys(operands))
        self.op = op
        self.exponent = exponent
        self.reflected = False  # built by __radd__ or __rmul__: written with its operands swapped
        self._args = None

    def args(self):
        """The numbers this node's op reads: the Args of grader/ops.py (read once: a node's data
        and its operands' never change, and the diagnoses ask for them hundreds of times)."""
        if self._args is None:
            x = self.operands[0].data if self.operands else None
            y = self.operands[1].data if len(self.operands) > 1 else None
            self._args = Args(x, y, self.data, self.exponent)
        return self._args

    def _apply(self, op, *others, exponent=None):
        operands = (self, *(o if isinstance(o, Node) else Node(o) for o in others))
        data = [node.data for node in operands] + [None]
        forward = op.forward(Args(data[0], data[1], None, exponent))
        return Node(forward, operands, op, exponent)

    def __add__(self, other):
        return self._apply(OPS["add"], other)

    def __mul__(self, other):
        return self._apply(OPS["mul"], other)

    def __pow__(self, exponent):
        return self._apply(OPS["pow"], exponent=exponent)

    def __getattr__(self, name):
        """The ops called by name (`x.tanh()`), whatever ops grader/ops.py registers."""
        for op in OPS.values():
            if op.label == name and op.arity == 1 and not op.power:
                return lambda: self._apply(op)
        raise AttributeError(name)

    # derived ops, built from the ones above exactly as the scaffolds build them
    def __radd__(self, other):
        return (self + other)._written_reflected()

    def __rmul__(self, other):
        return (self * other)._written_reflected()

    def _written_reflected(self):
        """`2 * n` builds `n * 2`, as the scaffolds do; its name keeps the order it was written."""
        self.reflected = True
        return self

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1


def answer(check):
    """The answer key's graph for `check`, gradients filled in: `(nodes, space)`, the nodes
    in topological order."""
    output, space = check.graph(lambda value, name: Node(value))
    nodes = topological(output)
    for index, node in enumerate(nodes):
        node.index = index
    output.grad = check.grad
    for node in reversed(nodes):
        if node.op:
            shares = node.op.local(node.args())
            for operand, local in zip(node.operands, shares, strict=False):
                operand.grad += local * node.grad
    return nodes, space


def node_names(nodes, space):
    """A name for every node (each with its `index`): the check's own names first, then one
    made from its op (`x * y`, `(x * y).tanh()`), or its value for a constant."""
    found = {}
    for name, value in space.items():
        if any(value is node for node in nodes) and id(value) not in found:
            found[id(value)] = name
    names, used = [], set()
    for node in nodes:
        name = found.get(id(node)) or _made_name(node, names)
        while name in used:
            name += "′"
        used.add(name)
        names.append(name)
    return names


def _made_name(node, names):
    if node.op is None:
        return f"{node.data:g}"
    parts = [names[operand.index] for operand in node.operands]
    parts = [f"({part})" if " " in part else part for part in parts]
    if node.op.arity == 2:
        first, second = parts[::-1] if node.reflected else parts
        return f"{first} {node.op.symbol} {second}"
    if node.op.power:
        return f"{parts[0]}**{node.exponent!r}"
    return f"{parts[0]}.{node.op.label}()"
