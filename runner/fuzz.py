"""Random expression graphs, run on the learner's whole Value class: the runner's half of
"Check my whole engine" (issue 42; grader/fuzz.py judges each graph and shrinks a failure).

A graph is plain data, so that it travels as JSON between the halves and is rebuilt the same
way on both (runner/checks.py builds it from its Python):

    {"leaves": [["a", 1.5], ["b", -0.5]],                       # name, value
     "nodes": [["c", "mul", ["a", 2.0]], ["d", "tanh", ["c"]],  # name, op, operands
               ["e", "add", ["d", "a"]]],                       # a name or a constant
     "grad": 0.5}                                               # seeded into the output

The output is the last node. A power's second operand is its exponent, a plain number. What
a run reports, per graph: `{"grads": {leaf: n}}` (runner/numbers.py's encoding), or
`{"error": ...}` as runner/errors.py describes the exception at the learner's own line.

Nothing here knows the right gradients: a graph is only kept when the design's reference
class runs it to finite numbers of moderate size, so that a graph never fails by the domain
of an op (the log of a negative number, an overflowing exp) or by float round-off.
"""

import json
import math
import random

from .assembly import their_bodies
from .checks import build_graph
from .errors import describe_exception, describe_syntax_error
from .graph import topological
from .numbers import encode
from .sandbox import CappedOutput, guarded
from .value_class import data, make_class, observe_checks, value_maker

SYMBOLS = {"__add__": "+", "__mul__": "*"}  # the binary ops, called with an operator
POWER = "__pow__"
MOST_OPS = 8  # per random graph: enough for chains and shared nodes, small enough to shrink
LEAF_NAMES = "abc"
CONSTANTS = (2.0, -1.5, 0.5, 3.0, -2.0, 1.25)
EXPONENTS = (2, 3, -1, 0.5, 2.5, -2)
SEEDS = (1.0, 1.0, 0.5, -2.0, 1.5, -0.75)  # upstream grads: 1.0 is backward()'s own
LARGEST_DATA = 1e3  # a graph whose data or grads grow past these is too sensitive to
LARGEST_GRAD = 1e4  # round-off for the seven-decimal rule, and is drawn again
MOST_REJECTED = 10_000  # draws in a row: no set of the course's ops comes near it


def kinds(design):
    """`{op: "binary" | "power" | "unary"}` for the ops of a design, from their methods' names."""
    found = {}
    for op, label in design["labels"].items():
        found[op] = "binary" if label in SYMBOLS else "power" if label == POWER else "unary"
    return found


def statement(node, labels):
    """A node of a graph as the line of Python that builds it: `c = a * 2.0`."""
    name, op, operands = node
    text = [repr(o) if isinstance(o, (int, float)) else o for o in operands]
    label = labels[op]
    if label in SYMBOLS:
        return f"{name} = {text[0]} {SYMBOLS[label]} {text[1]}"
    if label == POWER:
        return f"{name} = {text[0]} ** {text[1]}"
    return f"{name} = {text[0]}.{label}()"


def build_code(graph, labels):
    """The graph's Python, one statement a line, its last line assigning the output."""
    return "\n".join(statement(node, labels) for node in graph["nodes"])


def output_name(graph):
    return graph["nodes"][-1][0] if graph["nodes"] else graph["leaves"][0][0]


def build(graph, labels, make):
    """`(output, space)`: the graph built from leaves made by `make(value, name)`."""
    leaves = dict(graph["leaves"])
    if not graph["nodes"]:
        space = {name: make(value, name) for name, value in leaves.items()}
        return space[output_name(graph)], space
    return build_graph(build_code(graph, labels), leaves, output_name(graph), make)


def random_graph(rng, ops_kinds):
    """One graph over the ops of `ops_kinds` (`kinds()` cut to the ops to use), drawn by `rng`.
    Each op takes the latest node, so that every node leads to the output (a chain); a binary
    op's other operand is a leaf not used yet, an earlier node, the nearest most often (a node
    shared, a diamond), the latest node again (`x * x`) or a constant, on either side."""
    ops = sorted(ops_kinds)
    count = rng.randint(1, len(LEAF_NAMES))
    leaves = [[name, _leaf_value(rng)] for name in LEAF_NAMES[:count]]
    names = [name for name, _ in leaves]
    unused = names[:-1]
    nodes = []
    for index in range(rng.randint(1, MOST_OPS)):
        op = rng.choice(ops)
        first = names[-1]
        if ops_kinds[op] == "binary":
            second = _other_operand(rng, names, unused)
            operands = [first, second] if rng.random() < 0.5 else [second, first]
        elif ops_kinds[op] == "power":
            operands = [first, rng.choice(EXPONENTS)]
        else:
            operands = [first]
        name = f"n{index}"
        nodes.append([name, op, operands])
        names.append(name)
    return {"leaves": leaves, "nodes": nodes, "grad": rng.choice(SEEDS)}


def _leaf_value(rng):
    if rng.random() < 0.15:
        return 0.0  # where relu's kink is
    return round(rng.uniform(-2.5, 2.5), 1) or 0.5


def _other_operand(rng, names, unused):
    draw = rng.random()
    if draw < 0.25:
        return rng.choice(CONSTANTS)
    if unused and draw < 0.6:
        return unused.pop(rng.randrange(len(unused)))
    # the latest nodes most often: the latest op's own input makes the smallest diamond
    return names[-1 - min(int(rng.expovariate(0.8)), len(names) - 1)]


def random_graphs(design, ops, seed):
    """Graphs over `ops` and the binary ops, without end, the same ones for the same seed, each one
    the design's reference class runs to finite numbers of moderate size."""
    rng = random.Random(seed)
    # `+` and `*` always, as the reference where not written: a graph of one-input ops alone
    # never uses a node twice, where `=` for `+=` shows
    ops_kinds = {op: kind for op, kind in kinds(design).items() if op in ops or kind == "binary"}
    reference = LearnersClass(design, design["references"], {})
    rejected = 0
    while rejected < MOST_REJECTED:
        graph = random_graph(rng, ops_kinds)
        rejected = 0 if reference.moderate(graph) else rejected + 1
        if not rejected:
            yield graph
    raise ValueError(f"no usable graph over {', '.join(sorted(ops))} in {MOST_REJECTED} draws")


class LearnersClass:
    """A design's Value class with `used` ({op: body}) in its slots, `theirs` the learner's
    bodies among them (for the lines an error names)."""

    def __init__(self, design, used, theirs):
        self.design = design
        self.labels = design["labels"]
        self.local_grads = design["children"] == "_children"
        try:
            self.value_class, self.slots = make_class(design, used, theirs)
            self.broken = None
        except SyntaxError as error:
            self.value_class, self.broken = None, describe_syntax_error(error, error.slots)

    def run(self, graph):
        """`(output, space)` with every grad filled in by the class's own backward pass; raises
        whatever the learner's code raises."""
        output, space = build(graph, self.labels, value_maker(self.design, self.value_class))
        seed = graph["grad"]
        if seed == 1.0:
            output.backward()
            return output, space
        output.grad = seed  # backward() seeds 1.0: the same walk, by hand, from `seed`
        for node in reversed(topological(output, self.design["children"])):
            if self.local_grads:
                for i, child in enumerate(node._children):
                    child.grad += node._local_grads[i] * node.grad
            else:
                node._backward()
        return output, space

    def report(self, graph):
        """What the class did on `graph`, as data: each leaf's grad, or the error."""
        try:
            _, space = self.run(graph)
            return {"grads": {name: encode(space[name].grad) for name, _ in graph["leaves"]}}
        except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
            return {"error": describe_exception(error, self.slots)}

    def moderate(self, graph):
        """Whether the class runs `graph` to finite data and grads of moderate size."""
        try:
            output, _ = self.run(graph)
            nodes = topological(output, self.design["children"])
            return all(
                moderate(n.data, LARGEST_DATA) and moderate(n.grad, LARGEST_GRAD) for n in nodes
            )
        except Exception:  # noqa: BLE001 - the domain of an op: log(-1), an overflow
            return False


def moderate(number, largest):
    """Whether `number` is a real number, finite and no larger than `largest`."""
    return type(number) in (int, float) and math.isfinite(number) and abs(number) <= largest


def run_graphs(design, bodies, graphs):
    """Each graph's report (see the module's docstring), run on the design's class with the
    learner's `bodies` ({op: source}) and the reference for every other op; a class that does
    not compile gives one report, `{"broken": ...}`, for them all."""
    theirs = their_bodies(design, bodies)
    learners = LearnersClass(design, design["references"] | theirs, theirs)
    if learners.broken:
        return {"broken": learners.broken, "reports": []}
    output = CappedOutput()  # printed output is not shown: it goes nowhere
    with guarded(output):
        reports = [learners.report(graph) for graph in graphs]
    return {"broken": None, "reports": reports}


def as_exercise(design, bodies, graph):
    """A graph as an exercise of one check, for runner/value_class.py (`observe_checks`): the
    learner's `bodies` are its ops; every leaf's grad is what it checks (grader/fuzz_page.py)."""
    ops = list(their_bodies(design, bodies))
    check = {
        "build": build_code(graph, design["labels"]),
        "leaves": dict(graph["leaves"]),
        "grad": graph["grad"],
        "output": output_name(graph),
    }
    return {"ops": ops, "stubs": {op: "" for op in ops}, "checks": [check]}


def ask_json(design_name, bodies_json, ask_json):
    """The browser runner's half of the page's check (grader/fuzz_page.py says what to ask):
    `{"graphs": [...]}` gives `run_graphs` for them, `{"observe": graph}` runner/observe.py's
    observation of that one graph, each as JSON."""
    design = data()["designs"][design_name]
    bodies = json.loads(bodies_json)
    bodies = bodies if isinstance(bodies, dict) else {}
    ask = json.loads(ask_json)
    if "observe" in ask:
        return json.dumps(
            observe_checks(as_exercise(design, bodies, ask["observe"]), design, bodies)
        )
    return json.dumps(run_graphs(design, bodies, ask["graphs"]))
