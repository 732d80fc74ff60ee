"""The Value class the learner completes, in each design.

A design is a class: its head, one method per op (from grader/ops.py) and its tail. Each op's
method has a slot, a line `{body}`, for the learner's code. The class goes to the runner, the
page and the tests as segments (text, or a slot with its indentation), which
runner/assembly.py and widget/src/shared/scaffold.js join with the learner's code in place.

- closures (micrograd): a slot holds the statements of the op's `_backward` closure.
- local_grads (microgpt): a slot holds the expression of the op's tuple of local derivatives.
"""

from dataclasses import dataclass
from types import CodeType

from runner import assembly
from runner.assembly import FILENAME

from .ops import CLOSURES, LOCAL_GRADS, OPS, ops_of

SLOT = "{body}"
BODY_INDENT = 12


@dataclass(frozen=True)
class Design:
    name: str
    head: str
    tail: str
    children: str  # the attribute that holds a node's inputs
    expression: bool  # a slot holds an expression, not statements


CLOSURES_HEAD = '''\
# The Value class of micrograd (MIT, Andrej Karpathy, 2020), with tanh and exp from the
# nn-zero-to-hero lecture notebook (MIT, 2022). Each _backward body is yours to write.
import math


class Value:
    """A scalar that remembers how it was computed, and its gradient."""

    def __init__(self, data, _children=(), _op="", label=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        # the inputs, each once and in operand order (micrograd keeps a set; an order
        # that never changes makes every run of the same code behave the same)
        self._prev = tuple(dict.fromkeys(_children))
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
'''

DERIVED_OPS = """
    def __radd__(self, other):  # other + self
        return self + other

    def __rmul__(self, other):  # other * self
        return self * other

    def __neg__(self):  # -self
        return self * -1

    def __sub__(self, other):  # self - other
        return self + (-other)

    def __rsub__(self, other):  # other - self
        return other + (-self)

    def __truediv__(self, other):  # self / other
        return self * other**-1

    def __rtruediv__(self, other):  # other / self
        return other * self**-1
"""

CLOSURES_TAIL = (
    DERIVED_OPS
    + """
    def backward(self):
        # order the graph so that every node comes after all of its inputs
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        # the chain rule, from the output back to the leaves
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
"""
)

LOCAL_GRADS_HEAD = '''\
# The Value class of microgpt (MIT, Andrej Karpathy): each op stores its local gradients,
# and one backward() applies the chain rule. Each tuple of local gradients is yours to write.
import math


class Value:
    """A scalar, its gradient, its children and the local derivative w.r.t. each child."""

    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
'''

LOCAL_GRADS_TAIL = (
    DERIVED_OPS
    + """
    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            visited.add(v)
            for child in v._children:
                if child not in visited:
                    build_topo(child)
            topo.append(v)

        build_topo(self)
        del build_topo  # it refers to itself: kept, it would keep the graph until Python's gc ran
        self.grad = 1
        for v in reversed(topo):
            i = 0  # not zip(): in Pyodide a call to zip costs more than this loop's body
            for child in v._children:
                child.grad += v._local_grads[i] * v.grad
                i += 1
"""
)

DESIGNS = {
    CLOSURES: Design(CLOSURES, CLOSURES_HEAD, CLOSURES_TAIL, "_prev", expression=False),
    LOCAL_GRADS: Design(LOCAL_GRADS, LOCAL_GRADS_HEAD, LOCAL_GRADS_TAIL, "_children", True),
}


def labels(design):
    """`{op: label}` for the ops of a design, in class order."""
    return {op.name: op.label for op in ops_of(design)}


def segments(design):
    """The class as `{"text": str}` and `{"slot": op, "indent": n}` pieces, in order."""
    pieces = [{"text": DESIGNS[design].head}]
    for op in ops_of(design):
        before, after = op.methods[design].split(SLOT + "\n", 1)
        pieces += [
            {"text": "\n" + before},
            {"slot": op.name, "indent": BODY_INDENT},
            {"text": after},
        ]
    pieces.append({"text": DESIGNS[design].tail})
    return pieces


def assemble(design, bodies):
    """The class's source with `bodies[op]` in each slot, and where each slot starts (see
    runner/assembly.py)."""
    return assembly.assemble(segments(design), bodies, DESIGNS[design].expression)


def indent_body(body, design=CLOSURES):
    return assembly.indent_body(body, BODY_INDENT, DESIGNS[design].expression)


def scope(design, op):
    """The names the learner's code can use in an op's slot, read off the compiled class."""
    source, _ = assemble(design, dict.fromkeys(labels(design), ""))
    method = _code_named(compile(source, FILENAME, "exec"), OPS[op].label)
    names = dict.fromkeys(method.co_varnames + method.co_cellvars)
    return [name for name in names if name not in ("_backward", "local_grads")] + ["math"]


def _code_named(code, name):
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if const.co_name == name:
                return const
            found = _code_named(const, name)
            if found:
                return found
    return None
