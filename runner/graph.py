"""Walking a graph of Value-like nodes in a fixed order."""


def topological(output, children="_prev"):
    """Every node of the graph ending at `output`, each after all of its inputs.

    The same walk as the scaffolds' `backward()`, so both meet the nodes in the same order;
    `children` names the attribute holding a node's inputs.
    """
    order, visited = [], set()

    def visit(node):
        if node not in visited:
            visited.add(node)
            for child in getattr(node, children):
                visit(child)
            order.append(node)

    visit(output)
    return order
