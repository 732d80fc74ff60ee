"""What the learner's code did to one check's graph, step by step (runner/observe.py says the
record's shape): the steps are kept as `Step`s while the backward pass runs, and the record,
plain data for the judge, is made once at the end."""

from .numbers import encode

MAX_STEPS = 200  # per check: a tiny graph needs a few dozen at most
MAX_WRITES = 40  # per step: a closure writes each input's grad once or twice


class Step:
    """One call of a node's `_backward` (or one node's chaining) while it runs: every grad at
    its start, and what it changed itself, each node's `(first, last)` grad and data."""

    __slots__ = ("node", "depth", "start", "mark", "grads", "data", "writes", "local_grads")

    def __init__(self, node, depth, now):
        self.node, self.depth = node, depth
        self.start = [grad for grad, _ in now]
        self.mark = now  # the state its own changes are counted from
        self.grads, self.data = {}, {}  # node index -> (first, last)
        self.writes = []  # [index, before, after], in order
        self.local_grads = None  # microgpt's: the tuple it chained with

    def absorb(self, now):
        """Adds the changes since its mark to its own changes."""
        for j, (before, after) in enumerate(zip(self.mark, now, strict=True)):
            for k, changed in enumerate((self.grads, self.data)):
                if before[k] != after[k]:
                    changed[j] = (changed.get(j, (before[k],))[0], after[k])
        self.mark = now

    def record(self):
        record = {"node": self.node, "depth": self.depth, "start": self.start}
        for kind, changed in (("grads", self.grads), ("data", self.data)):
            record[kind] = [
                [j, first, last] for j, (first, last) in changed.items() if first != last
            ]
        record["writes"] = self.writes
        if self.local_grads is not None:
            record["local_grads"] = self.local_grads
        return record


class Trace:
    """What the learner's code did to one check's graph, step by step."""

    def __init__(self):
        self.nodes = []
        self.index = {}
        self.steps = []
        self.open = []  # the steps under way, innermost last (None: one past MAX_STEPS)
        self.dropped = False
        self.complete = False  # the backward pass ran to its end
        self.data = []  # each node's data as the backward pass starts

    def start(self, nodes):
        self.nodes = nodes
        self.index = {id(node): i for i, node in enumerate(nodes)}
        self.data = [_read(node, "data") for node in nodes]

    def state(self):
        return [(_read(node, "grad"), _read(node, "data")) for node in self.nodes]

    def traced(self, index, closure):
        """`closure` (node `index`'s `_backward`), its calls recorded as steps."""

        def _backward():
            self.begin(index)
            try:
                return closure()
            finally:
                self.end()

        return _backward

    def chain(self, node):
        """One node's step of microgpt's backward(): each child gets local_grad * node.grad."""
        step = self.begin(self.index[id(node)])
        local = getattr(node, "_local_grads", ())
        if step is not None:
            step.local_grads = (
                [encode(item) for item in local[:8]]
                if isinstance(local, (tuple, list))
                else encode(local)
            )
        try:
            if isinstance(local, (tuple, list)):
                for child, local_grad in zip(node._children, local, strict=False):
                    child.grad += local_grad * node.grad
        finally:
            self.end()

    def begin(self, index):
        now = self.state()
        if self.open and self.open[-1] is not None:
            self.open[-1].absorb(now)
        if len(self.steps) >= MAX_STEPS:
            self.dropped = True
            self.open.append(None)
            return None
        step = Step(index, len(self.open), now)
        self.steps.append(step)
        self.open.append(step)
        return step

    def wrote(self, node, before, after):
        """A `.grad` was assigned: recorded in the innermost step under way, if any."""
        step = self.open[-1] if self.open else None
        index = self.index.get(id(node))
        if step is not None and index is not None and len(step.writes) < MAX_WRITES:
            step.writes.append([index, encode(before), encode(after)])

    def end(self):
        now = self.state()
        step = self.open.pop()
        if step is not None:
            step.absorb(now)
        if self.open and self.open[-1] is not None:
            self.open[-1].mark = now  # the outer call's own changes resume from here

    def record(self):
        """The check's record, as plain data: each node's data at the start and grad now."""
        nodes = [
            {"data": data, "grad": _read(node, "grad")}
            for data, node in zip(self.data, self.nodes, strict=True)
        ]
        steps = [step.record() for step in self.steps]
        return {"nodes": nodes, "steps": steps, "complete": self.complete, "dropped": self.dropped}


def watch_grads(value_class, trace):
    """Every assignment to a Value's `.grad` from now on goes to `trace.wrote` (a `+=` too: it
    reads, then assigns). The value stays in the instance's own `__dict__`."""

    def get(node):
        return vars(node)["grad"]

    def set_(node, value):
        before = vars(node).get("grad")
        vars(node)["grad"] = value
        trace.wrote(node, before, value)

    value_class.grad = property(get, set_)


def _read(node, name):
    try:
        return encode(getattr(node, name))
    except BaseException:  # noqa: BLE001 - a property of the learner's making may raise
        return {"type": "unreadable"}
