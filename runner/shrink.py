"""Shrinking a failing random graph (runner/fuzz.py's data): the graphs a little smaller than
one, each a node removed, a subgraph replaced by a leaf holding its value, two leaves made one,
or a plainer constant, and how small a graph is. grader/fuzz.py shrinks with them, judging each
candidate against the answer key; runner/engine.py picks with them the smallest graph it shows
of a whole engine, which the judge then holds to the answer key itself.
"""

from .fuzz import build

MOST_ROUNDS = 60  # of shrinking: each round makes the graph strictly smaller
PLAIN = (1.0, 2.0, -1.0, 0.5, 0.0)  # the constants a shrunk graph is tried with, plainest first


def size(graph):
    """What shrinking makes smaller, most important first: ops, leaves, then plainness."""
    plainness = sum(_plainness(value) for _, value in graph["leaves"])
    for _, _, operands in graph["nodes"]:
        plainness += sum(_plainness(o) for o in operands[1:] if not isinstance(o, str))
    return (len(graph["nodes"]), len(graph["leaves"]), plainness, graph["grad"] != 1.0)


def _plainness(value):
    if value in PLAIN:
        return PLAIN.index(value) * 0.1
    return 1 if float(value).is_integer() else 2


def smaller(graph, labels, make):
    """Each round of shrinking's candidates: the graphs `candidates_of` makes that are strictly
    smaller than `graph`, once each, in its order (lazily: a caller may stop at the first)."""
    here = size(graph)
    return (c for c in _unique(candidates_of(graph, labels, make)) if size(c) < here)


def candidates_of(graph, labels, make):
    """Graphs a little smaller than `graph`, those with fewer ops first; `make(value, name)`
    makes the nodes that work out a subgraph's value (its data only is read)."""
    for index in range(len(graph["nodes"]) - 1):
        yield _pruned(graph | {"nodes": graph["nodes"][: index + 1]})  # an earlier output
    for index in range(len(graph["nodes"])):
        yield from _without(graph, index)
    for index in range(len(graph["nodes"]) - 1):
        yield _as_leaf(graph, index, labels, make)
    yield from _leaves_merged(graph)
    yield from _plainer(graph)


def _without(graph, index):
    """The node at `index` removed, its uses given each of its operands in turn."""
    name, _, operands = graph["nodes"][index]
    for operand in dict.fromkeys(o for o in operands if isinstance(o, str)):
        nodes = [_renamed(node, name, operand) for node in graph["nodes"] if node[0] != name]
        if nodes:
            yield _pruned(graph | {"nodes": nodes})


def _as_leaf(graph, index, labels, make):
    """The subgraph ending at node `index` replaced by a new leaf holding its value."""
    name = graph["nodes"][index][0]
    _, space = build(graph, labels, make)
    value = round(space[name].data, 2) if isinstance(space[name].data, float) else 1.0
    taken = {leaf for leaf, _ in graph["leaves"]} | {node[0] for node in graph["nodes"]}
    leaf = next(letter for letter in "abcdefghijklmnopqrstuvwxyz" if letter not in taken)
    nodes = [_renamed(node, name, leaf) for node in graph["nodes"] if node[0] != name]
    return _pruned(graph | {"leaves": [*graph["leaves"], [leaf, value]], "nodes": nodes})


def _leaves_merged(graph):
    """Each leaf after the first replaced by the first: one leaf fewer."""
    first = graph["leaves"][0][0]
    for leaf, _ in graph["leaves"][1:]:
        nodes = [_renamed(node, leaf, first) for node in graph["nodes"]]
        yield _pruned(graph | {"nodes": nodes})


def _plainer(graph):
    """Each constant, leaf value and the upstream grad made plainer, one at a time."""
    if graph["grad"] != 1.0:
        yield graph | {"grad": 1.0}
    for index, (leaf, value) in enumerate(graph["leaves"]):
        for plain in _plain_values(value):
            leaves = [list(item) for item in graph["leaves"]]
            leaves[index] = [leaf, plain]
            yield graph | {"leaves": leaves}
    for index, (name, op, operands) in enumerate(graph["nodes"]):
        for place, operand in enumerate(operands):
            if isinstance(operand, str):
                continue
            for plain in _plain_values(operand):
                changed = list(operands)
                changed[place] = int(plain) if float(plain).is_integer() else plain
                nodes = list(graph["nodes"])
                nodes[index] = [name, op, changed]
                yield graph | {"nodes": nodes}


def _plain_values(value):
    return [plain for plain in (*PLAIN, float(round(value))) if plain != value]


def _renamed(node, old, new):
    name, op, operands = node
    return [name, op, [new if operand == old else operand for operand in operands]]


def _pruned(graph):
    """`graph` without the nodes the output does not read, nor the leaves no node reads."""
    needed = {graph["nodes"][-1][0]}
    kept = []
    for node in reversed(graph["nodes"]):
        if node[0] in needed:
            kept.append(node)
            needed |= {o for o in node[2] if isinstance(o, str)}
    leaves = [leaf for leaf in graph["leaves"] if leaf[0] in needed]
    return graph | {"leaves": leaves or graph["leaves"][:1], "nodes": kept[::-1]}


def _unique(graphs):
    seen = set()
    for graph in graphs:
        mark = repr(graph)
        if mark not in seen:
            seen.add(mark)
            yield graph
