"""The answer key: gradients from closed-form local derivatives, never from any closure.

A `Node` mirrors the scaffold's Value (same ops, same graph, same order of backward steps), but
each op's local derivatives are formulas written here. A `Mistake` bends one op's rule the way a
classic wrong closure does, so the grader can say what a wrong number most likely came from.
"""

import math
from dataclasses import dataclass

from .graph import topological


class Node:
    def __init__(self, data, operands=(), slot="", exponent=None):
        self.data = data
        self.grad = 0.0
        self.operands = operands
        self._prev = tuple(dict.fromkeys(operands))
        self.slot = slot
        self.exponent = exponent

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        return Node(self.data + other.data, (self, other), "add")

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        return Node(self.data * other.data, (self, other), "mul")

    def __pow__(self, exponent):
        return Node(self.data**exponent, (self,), "pow", exponent)

    def tanh(self):
        return Node(math.tanh(self.data), (self,), "tanh")

    def exp(self):
        return Node(math.exp(self.data), (self,), "exp")

    # derived ops, built from the ones above exactly as the scaffold builds them
    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

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


def _first(out):
    return out.operands[0].data


# d(out)/d(operand) for each operand, in operand order
LOCAL = {
    "add": lambda out: (1.0, 1.0),
    "mul": lambda out: (out.operands[1].data, out.operands[0].data),
    "pow": lambda out: (out.exponent * _first(out) ** (out.exponent - 1),),
    "tanh": lambda out: (1 - out.data**2,),
    "exp": lambda out: (out.data,),
}

# what the classic wrong closures compute instead, keyed by the explanation they deserve
WRONG_LOCAL = {
    "add": {"add_like_mul": lambda out: (out.operands[1].data, out.operands[0].data)},
    "mul": {"mul_swapped": lambda out: (out.operands[0].data, out.operands[1].data)},
    "pow": {
        "pow_exponent_kept": lambda out: (out.exponent * _first(out) ** out.exponent,),
        "pow_no_factor": lambda out: (_first(out) ** (out.exponent - 1),),
    },
    "tanh": {
        "tanh_input": lambda out: (1 - _first(out) ** 2,),
        "tanh_not_squared": lambda out: (1 - out.data,),
    },
    "exp": {"exp_input": lambda out: (_first(out),)},
}


@dataclass(frozen=True)
class Mistake:
    """One op's closure gone wrong in one or more classic ways."""

    slot: str
    local: str = ""  # a WRONG_LOCAL key, "nothing" (no grad changes), or "" (right formula)
    upstream: bool = True  # multiplies by out.grad
    accumulate: bool = True  # `+=` rather than `=`
    both_operands: bool = True  # also updates `other.grad`

    @property
    def keys(self):
        """The explanation keys of this mistake, simplest first."""
        found = [self.local] if self.local else []
        found += [] if self.accumulate else ["assign"]
        found += [] if self.upstream else ["no_upstream"]
        found += [] if self.both_operands else ["one_operand"]
        return found


def backprop(output, seed, mistakes=()):
    """Fill in every node's grad, with `mistakes` bending the rules of their ops."""
    bent = {mistake.slot: mistake for mistake in mistakes}
    output.grad = seed
    for node in reversed(topological(output)):
        if node.slot:
            _step(node, bent.get(node.slot, Mistake(node.slot)))


def _step(out, mistake):
    if mistake.local == "nothing":
        return
    rule = WRONG_LOCAL[out.slot][mistake.local] if mistake.local else LOCAL[out.slot]
    shares = rule(out) if mistake.both_operands else rule(out)[:1]
    for operand, local in zip(out.operands, shares, strict=False):
        share = local * out.grad if mistake.upstream else local
        operand.grad = operand.grad + share if mistake.accumulate else share
