"""Walking a graph of Value-like nodes (anything with `_prev`), in a fixed order."""


def topological(output):
    """Every node of the graph ending at `output`, each after all of its parents.

    The same walk as the scaffold's `backward()`, so both call `_backward`s in the same order.
    """
    order, visited = [], set()

    def visit(node):
        if node not in visited:
            visited.add(node)
            for parent in node._prev:
                visit(parent)
            order.append(node)

    visit(output)
    return order


def uses(output):
    """The ops that consume each node, once per edge: a node used twice gets two gradients."""
    found = {}
    for node in topological(output):
        for operand in node.operands:
            found.setdefault(operand, []).append(node.slot)
    return found
