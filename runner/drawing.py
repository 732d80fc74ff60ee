"""Computation graphs of live `Value` objects, as Graphviz DOT and as a sentence for screen readers:
the lesson pages' graphs, drawn by the build (course/lessons.py) and redrawn by the page's Python
session (runner/notebook.py) from the same code.

Works with any object shaped like the course's `Value`: `data`, `_prev`, `_op`, `label`, and
`grad` once the lessons have added it. Nodes carry SVG classes (`value`, `leaf`, `op`, `edge`)
and no colours: the site's CSS paints them, so one drawing suits light and dark schemes.
"""

from .graph import topological as trace  # inputs before outputs, each once

FONT = "Helvetica,Arial,sans-serif"


def number(x):
    """A number as the diagrams show it: four decimals, and never `-0.0000`."""
    x = float(x) + 0.0  # a plain float: a learner's number-like object formats as it likes
    return f"{x:.4f}" if round(x, 4) else "0.0000"


def _numbers(v):
    """What a node shows besides its label: its data, and its grad once Values have one."""
    return [f"data {number(v.data)}"] + ([f"grad {number(v.grad)}"] if hasattr(v, "grad") else [])


def escape(text):
    """`text` escaped for a Graphviz record label."""
    text = str.__str__(
        str(text)
    )  # a plain str: a learner's subclass may answer replace() as it likes
    for special in '\\{}|<>"':
        text = text.replace(special, "\\" + special)
    return text


def header(direction):
    return [
        "digraph {",
        f'  graph [rankdir={direction}, bgcolor=transparent, fontname="{FONT}", nodesep=0.25,'
        " ranksep=0.35]",
        f'  node [fontname="{FONT}", fontsize=12, penwidth=1.2]',
        "  edge [penwidth=1.2, arrowsize=0.7]",
    ]


def value_node(node_id, fields, kind, direction, extra=""):
    """A value's node: its fields stacked, so that nodes stay narrow either way."""
    label = " | ".join(fields)
    if direction == "TB":  # records stack their fields across the rank direction
        label = f"{{ {label} }}"
    return f'  {node_id} [shape=Mrecord, class="{kind}{extra}", label="{label}"]'


def op_nodes(node_id, symbol, inputs, extra=""):
    op = f"{node_id}_op"
    return [
        f'  {op} [shape=circle, class="op{extra}", label="{escape(symbol)}"]',
        f"  {op} -> {node_id}",
        *(f"  {name} -> {op}" for name in inputs),
    ]


def dot(root, direction="LR"):
    """The DOT source of the graph that produced `root`, drawn left to right or top down ("TB").

    Either way a node's label, data and grad are stacked, so nodes stay narrow.
    """
    nodes = trace(root)
    name = {id(v): f"v{i}" for i, v in enumerate(nodes)}
    lines = header(direction)
    for v in nodes:
        fields = [escape(v.label)] * bool(v.label) + _numbers(v)
        kind = "value result" if v._op else "value leaf"
        lines.append(value_node(name[id(v)], fields, kind, direction))
        if v._op:
            lines += op_nodes(name[id(v)], v._op, [name[id(p)] for p in v._prev])
    lines.append("}")
    return "\n".join(lines) + "\n"


def describe(root):
    """The graph in words, for a screen reader: how each node was computed, from the leaves up."""
    parts = []
    for v in trace(root):
        label = v.label or "an unnamed value"
        values = ", ".join(_numbers(v))
        if v._op:
            inputs = " and ".join(p.label or "an unnamed value" for p in v._prev)
            parts.append(f"{label} = {v._op} of {inputs} ({values})")
        else:
            parts.append(f"{label} is a leaf ({values})")
    return f"Computation graph of {root.label or 'the output'}: " + "; ".join(parts) + "."
