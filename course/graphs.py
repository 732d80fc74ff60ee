"""The graphs of an exercise's checks, as Graphviz DOT drawn as the lessons draw theirs
(runner/drawing.py, which also draws the lessons' graphs of live `Value` objects)."""

from runner.drawing import escape, header, number, op_nodes, value_node

# room for the learner's numbers, which the page writes in: a grad, and for a checked node
# whether it is right (and the expected value when it is not)
GRAD_ROOM = "grad -0000.0000"
CHECK_ROOM = "✗ expected -0000.0000"


def check_dot(nodes, names, checked, direction="LR"):
    """The DOT source of an exercise check's graph (the answer key's nodes, in topological
    order, and their names), drawn as the lessons draw theirs. Each value's node has the class
    `n<i>` and the fields name, data, grad (room for the learner's) and, when `i` is among
    the `checked` ones, room for its verdict; each op's node has the class `o<i>`. Every use of
    an input is an edge of its own: `x * x` draws two."""
    lines = header(direction)
    for i, node in enumerate(nodes):
        fields = [escape(names[i]), f"data {number(node.data)}", GRAD_ROOM]
        fields += [CHECK_ROOM] * (i in checked)
        kind = "value result" if node.op else "value leaf"
        lines.append(value_node(f"v{i}", fields, kind, direction, f" n{i}"))
        if node.op:
            symbol = f"**{node.exponent!r}" if node.op.power else node.op.symbol
            lines += op_nodes(f"v{i}", symbol, [f"v{o.index}" for o in node.operands], f" o{i}")
    lines.append("}")
    return "\n".join(lines) + "\n"
