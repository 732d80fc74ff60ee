"""Which closure broke training: the first to turn a finite gradient into something else."""

from runner.graph import topological
from runner.numbers import finite


def culprit(graph):
    """The closure that first turned a finite gradient into something else (nan, infinity, not a
    number), found by running the last step's backward pass again one closure at a time: its
    op's label (`__mul__`), or None when every closure kept the numbers finite."""
    order = topological(graph)
    for node in order:
        node.grad = 0.0
    graph.grad = 1.0
    for node in reversed(order):
        children = node._prev  # a learner's closure may rebind it: the list is taken first
        was_finite = [finite(child.grad) for child in children]
        node._backward()
        if any(was and not finite(c.grad) for was, c in zip(was_finite, children, strict=True)):
            # the closure is defined in its op's method: Value.__mul__.<locals>._backward
            return node._backward.__qualname__.split(".")[1]
    return None
