"""The Value class the learner completes: micrograd's engine with one slot per op.

Each slot is the body of that op's `_backward` closure. The learner writes it at column 0;
`assemble` indents it into place. The template is kept as a list of segments (text, or a slot
with its indentation) so that the browser's "Show full Value class" joins the very same pieces.
"""

SLOT_LABELS = {
    "add": "__add__",
    "mul": "__mul__",
    "pow": "__pow__",
    "tanh": "tanh",
    "exp": "exp",
}

FILENAME = "<Value class>"

TEMPLATE = '''\
# The Value class of micrograd (MIT, Andrej Karpathy, 2020), with tanh and exp from the
# nn-zero-to-hero lecture notebook (MIT, 2022). Each _backward body is yours to write.
import math


class Value:
    """A scalar that remembers how it was computed, and its gradient."""

    def __init__(self, data, _children=(), _op="", label=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        # the parents, each once and in operand order (micrograd keeps a set; an order
        # that never changes makes every run of the same code behave the same)
        self._prev = tuple(dict.fromkeys(_children))
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
{add}
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
{mul}
        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only int or float exponents"
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
{pow}
        out._backward = _backward
        return out

    def tanh(self):
        t = (math.exp(2 * self.data) - 1) / (math.exp(2 * self.data) + 1)
        out = Value(t, (self,), "tanh")

        def _backward():
{tanh}
        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
{exp}
        out._backward = _backward
        return out

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

    def backward(self):
        # order the graph so that every node comes after all of its parents
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
'''

BODY_INDENT = " " * 12


def segments():
    """The template as `("text", str)` and `("slot", name, indent)` pieces, in order."""
    pieces = []
    rest = TEMPLATE
    for slot in SLOT_LABELS:
        marker = "{" + slot + "}"
        before, rest = rest.split(marker, 1)
        pieces.append(("text", before))
        pieces.append(("slot", slot, len(BODY_INDENT)))
    pieces.append(("text", rest))
    return pieces


def indent_body(body):
    """The learner's column-0 body, indented into its closure; an empty body becomes `pass`."""
    lines = body.expandtabs(4).rstrip().splitlines() or ["pass"]
    if not any(line.strip() and not line.lstrip().startswith("#") for line in lines):
        lines.append("pass")
    return "\n".join(BODY_INDENT + line if line.strip() else "" for line in lines)


def assemble(bodies):
    """The full source, with `bodies[slot]` in each slot, and where each slot starts.

    Returns `(source, starts)`: `starts[slot]` is the 1-based line of the slot's first line.
    """
    parts, starts, line = [], {}, 1
    for piece in segments():
        text = piece[1] if piece[0] == "text" else indent_body(bodies[piece[1]]) + "\n"
        if piece[0] == "slot":
            starts[piece[1]] = line
        parts.append(text)
        line += text.count("\n")
    return "".join(parts), starts
