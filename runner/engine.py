"""A whole engine, run: the runner's half of a find-the-bug tab (`kind = "engine"`, issue 42).

The learner's code is a whole Value class (and, on some tabs, a training loop): nothing of the
course's scaffold is around it, and its own `backward()` runs every graph. What it did, as data
(numbers encoded by runner/numbers.py):

    {"checks": [{"grads": {name: n}}],            # each fixed check: its checked names' grads
     "graphs": [{"grads": {leaf: n}} or {"error": ...}],     # the seeded random graphs
     "smallest": {"graph": g, "report": r} or null,          # see `smallest`
     "train": [{"losses": [n]} or {"error": ...}],           # each training run, if the tab has
     "error": null or runner/errors.py's description,
     "stdout": "...", "stdout_truncated": bool,
     "stdout_lines": int}  # the lines printed, all of them, where stdout keeps a beginning

Nothing here knows a right gradient but the design's reference class, which runner/fuzz.py
holds already to draw its graphs: with it the runner picks the smallest failing graph it can
shrink to (runner/shrink.py), only so that the judge has a small graph to show. The judge
(grader/engine.py) draws the same graphs and holds every report, that one included, to the
answer key itself.
"""

import random

from .assembly import FILENAME
from .assembly import bodies as door
from .checks import build_graph
from .errors import Slots, describe_exception, describe_syntax_error
from .fuzz import LearnersClass, random_graphs
from .numbers import encode
from .precision import PLACES  # for picking the smallest graph to show only
from .sandbox import CappedOutput, guarded
from .shrink import MOST_ROUNDS, smaller
from .value_class import data, value_maker

SLOT = "engine"  # the one slot of an engine tab: the whole source
GRAPHS = 120  # random graphs a run: every planted bug fails within the first few dozen
SEED = 42  # the same graphs for every learner, and for the judge
TRAINING_RUNS = 5  # seeded training runs after the tab's own


def engine_graphs(design, draws):
    """The seeded random graphs an engine tab is graded on, each seeded with 1.0 (the learner's
    own `backward()` seeds the output)."""
    drawn = random_graphs(design, draws, SEED)
    return [next(drawn) | {"grad": 1.0} for _ in range(GRAPHS)]


def training_runs(train):
    """The training runs a tab with a loop is graded on: its own (`train`: w, b, points, steps,
    lr), then seeded ones with other points, starts, steps and rates."""
    runs = [train]
    rng = random.Random(SEED)
    for _ in range(TRAINING_RUNS):
        count = rng.randint(2, 5)
        points = [
            [round(rng.uniform(-2, 2), 1), round(rng.uniform(-2, 2), 1)] for _ in range(count)
        ]
        runs.append(
            {
                "w": round(rng.uniform(-1, 1), 2),
                "b": round(rng.uniform(-1, 1), 2),
                "points": points,
                "steps": rng.randint(4, 8),
                "lr": rng.choice((0.05, 0.1, 0.2)),
            }
        )
    return runs


class WholeEngine(LearnersClass):
    """runner/fuzz.py's LearnersClass on a class the learner wrote whole: every graph through its
    own `backward()` (each graph's seed is 1.0)."""

    def __init__(self, design, value_class, slots):
        self.design, self.labels, self.local_grads = design, design["labels"], False
        self.value_class, self.slots, self.broken = value_class, slots, None


def compile_engine(source):
    """`(code, namespace, slots)`: the learner's source compiled, to run as a module in
    `namespace`; raises SyntaxError (with `slots`) for code that does not compile."""
    slots = Slots({SLOT: 1}, {SLOT: source}, {SLOT: "engine"})
    namespace = {"__name__": "engine"}
    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as error:
        error.slots = slots
        raise
    return code, namespace, slots


def observe_engine(exercise_id, bodies, known=None):
    """Run an engine tab's code (`bodies["engine"]`, else its starting code) on its fixed
    checks, its random graphs and its training runs."""
    known = data() if known is None else known
    exercise = known["exercises"][exercise_id]
    design = known["designs"][exercise["design"]]
    source = door(bodies, exercise["stubs"])[SLOT]
    output = CappedOutput()
    seen = {"checks": [], "graphs": [], "smallest": None, "train": [], "error": None}
    try:
        code, namespace, slots = compile_engine(source)
    except SyntaxError as error:
        seen["error"] = describe_syntax_error(error, error.slots)
    else:
        with guarded(output):
            _run_all(exercise, design, code, namespace, slots, seen)
    seen |= output.report()
    return seen


def _run_all(exercise, design, code, namespace, slots, seen):
    try:
        exec(code, namespace)
        value_class = namespace.get("Value")
        if not isinstance(value_class, type):
            raise NameError("the engine defines no class `Value`")
        make = value_maker(design, value_class)
        for check in exercise["checks"]:
            seen["checks"].append(None)
            output, space = build_graph(check["build"], check["leaves"], check["output"], make)
            output.backward()
            seen["checks"][-1] = {"grads": {n: encode(space[n].grad) for n in check["names"]}}
    except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
        seen["error"] = describe_exception(error, slots)
        return
    engine = WholeEngine(design, value_class, slots)
    graphs = engine_graphs(design, exercise["draws"])
    seen["graphs"] = [engine.report(graph) for graph in graphs]
    seen["smallest"] = smallest(design, engine, graphs, seen["graphs"])
    if exercise.get("train"):
        runs = training_runs(exercise["train"])
        seen["train"] = [_trained(namespace, value_class, run, slots) for run in runs]


def _trained(namespace, value_class, run, slots):
    try:
        w, b = value_class(run["w"], label="w"), value_class(run["b"], label="b")
        points = [tuple(point) for point in run["points"]]
        losses = namespace["train"](w, b, points, run["steps"], run["lr"])
        return {"losses": [encode(loss) for loss in list(losses)[:50]]}
    except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
        return {"error": describe_exception(error, slots)}


def smallest(design, engine, graphs, reports):
    """The smallest graph the first graph the reference class disagrees with shrinks to, with
    the learner's report on it: `{"graph", "report"}`, or None when no graph disagrees."""
    reference = LearnersClass(design, design["references"], {})
    first = next(
        (g for g, r in zip(graphs, reports, strict=True) if _differs(reference, g, r)), None
    )
    if first is None:
        return None
    graph = first
    make = value_maker(design, reference.value_class)
    for _ in range(MOST_ROUNDS):
        found = next(
            (
                c
                for c in smaller(graph, engine.labels, make)
                if reference.moderate(c) and _differs(reference, c, engine.report(c))
            ),
            None,
        )
        if found is None:
            break
        graph = found
    graph = tidy(graph)
    return {"graph": graph, "report": engine.report(graph)}


def tidy(graph):
    """`graph` with its leaves named a, b, c… and its nodes n0, n1… in order, as a learner
    would write it out (shrinking leaves gaps)."""
    names = {leaf: "abcdefghijklm"[i] for i, (leaf, _) in enumerate(graph["leaves"])}
    names |= {node[0]: f"n{i}" for i, node in enumerate(graph["nodes"])}
    rename = lambda o: names.get(o, o) if isinstance(o, str) else o  # noqa: E731
    return graph | {
        "leaves": [[names[leaf], value] for leaf, value in graph["leaves"]],
        "nodes": [
            [names[n], op, [rename(o) for o in operands]] for n, op, operands in graph["nodes"]
        ],
    }


def _differs(reference, graph, report):
    """Whether `report` (the learner's) disagrees with the reference class on `graph`."""
    if "grads" not in report:
        return True
    right = reference.report(graph)["grads"]
    for leaf, expected in right.items():
        got = report["grads"].get(leaf)
        if not isinstance(got, float) or round(got - expected, PLACES) != 0:
            return True
    return False


def main():
    """`python -m runner.engine`: one run in a process of its own, for grader/cli/isolated.py.
    Reads `{"exercise", "bodies", "data", "out"}` as JSON on stdin and writes what it saw."""
    import json
    import sys
    from pathlib import Path

    request = json.loads(sys.stdin.read())
    found = observe_engine(request["exercise"], request["bodies"], request["data"])
    Path(request["out"]).write_text(json.dumps(found), encoding="utf-8")


if __name__ == "__main__":
    main()
