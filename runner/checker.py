"""The gradient checker's exercise: the learner's `numerical_grad(f, x, h)`,
`relative_error(a, b)` and `check(f, x, grad)` called on the exercise's fixed checks, and what
each returned, as data for the judge (grader/kinds/checker.py). Like runner/observe.py it knows no
right answer. The observation, as JSON:

    {"checks": [{"got": n, "hs": [n]}],   # up to the check that raised; `hs`: the h of every
                                          # call of numerical_grad that the call made
     "error": null or runner/errors.py's description,
     "stdout": "...", "stdout_truncated": bool,
     "stdout_lines": int}  # the lines printed, all of them, where stdout keeps a beginning

It also measures, for the page's plot, how far a central and a forward difference are from
the gradient the learner's own op code gives, as h shrinks (`sweep`): course code measures,
the learner's closures answer.
"""

import math

from .assembly import FILENAME
from .assembly import bodies as door
from .errors import Slots, describe_exception, describe_syntax_error
from .numbers import encode
from .sandbox import CappedOutput, guarded

SLOT = "checker"  # the one slot of a checker exercise: the learner's three functions
MAX_CALLS = 20  # the h's recorded per check


def function_of(expression):
    """A check's function of x, from the exercise's own text (course code, never the
    learner's): `math.exp(x)` becomes `lambda x: math.exp(x)`."""
    return eval(compile(f"lambda x: {expression}", "<check>", "eval"), {"math": math})  # noqa: S307


def arguments(check):
    """The arguments a check passes to the learner's function, in order."""
    if check["call"] == "relative_error":
        return [check["a"], check["b"]]
    f = function_of(check["f"])
    if check["call"] == "numerical_grad":
        return [f, check["x"], check["h"]]
    return [f, check["x"], function_of(check["df"])(check["x"])]


def observe_checker(exercise, bodies):
    """Runs the learner's code (`bodies["checker"]`, else the starter code) and calls its
    functions on every check of `exercise` (as runner/data.json holds it)."""
    body = door(bodies, exercise["stubs"])[SLOT]
    slots = Slots({SLOT: 1}, {SLOT: body}, {SLOT: exercise.get("label", SLOT)})
    output = CappedOutput()
    observation = {"checks": [], "error": None}
    try:
        code = compile(body, FILENAME, "exec")
    except SyntaxError as error:
        observation["error"] = describe_syntax_error(error, slots)
    else:
        with guarded(output):
            try:
                namespace = {"__name__": "checker", "math": math}
                exec(code, namespace)  # noqa: S102 - the learner's code, in a runner of its own
                for check in exercise["checks"]:
                    if not callable(namespace.get(check["call"])):
                        observation["error"] = _missing(check["call"], slots)
                        break
                    observation["checks"].append(_call(namespace, check))
            except BaseException as error:  # noqa: BLE001 - learner code may raise anything
                observation["error"] = describe_exception(error, slots)
    observation |= output.report()
    return observation


def _call(namespace, check):
    """What the learner's function returned on one check, and the h of each numerical_grad
    call it made (a `check` calls it through the module's name, which is watched here)."""
    name = check["call"]
    hs = []
    theirs = namespace.get("numerical_grad")

    def watched(*args, **kwargs):
        if len(hs) < MAX_CALLS:
            given = args[2] if len(args) > 2 else kwargs.get("h")
            hs.append(encode(given))
        return theirs(*args, **kwargs)

    if name == "check" and callable(theirs):
        namespace["numerical_grad"] = watched
    try:
        got = namespace[name](*arguments(check))
    finally:
        namespace["numerical_grad"] = theirs
    return {"got": encode(got), "hs": hs}


def _missing(name, slots):
    """The error of code that defines no function the check calls, as runner/errors.py
    describes one."""
    summary = f"Your code defines no function `{name}`: the test calls it."
    return {
        "type": "NameError",
        "message": f"no function {name}",
        "slot": SLOT,
        "label": slots.labels[SLOT],
        "line": None,
        "source_line": "",
        "summary": summary,
        "text": summary,
        "name": name,
        "builtin": None,
    }


# the plot's h, from 1e-1 down to 1e-12, four to a decade
PLOT_HS = [10 ** (-k / 4) for k in range(4, 49)]
PLOT_OPS = (("tanh", 0.5), ("exp", 1.0))


def sweep(value_class):
    """For each op of PLOT_OPS at its x: the gradient the learner's closure gives, and the
    relative error of a central and a forward difference against it at every h; then relu at
    0, where the two sides' slopes differ: their average and the closure's gradient."""
    curves = []
    with guarded(CappedOutput()):
        for op, x in PLOT_OPS:
            curves.append(_curve(value_class, op, x))
        kink = _kink(value_class)
    return {"hs": PLOT_HS, "curves": curves, "kink": kink}


def _curve(value_class, op, x):
    def f(at):
        return getattr(value_class(at), op)().data

    try:
        leaf = value_class(x)
        getattr(leaf, op)().backward()
        grad = leaf.grad
        central = [_relative((f(x + h) - f(x - h)) / (2 * h), grad) for h in PLOT_HS]
        forward = [_relative((f(x + h) - f(x)) / h, grad) for h in PLOT_HS]
    except Exception as error:  # noqa: BLE001 - the learner's closure may raise anything
        return {"op": op, "x": x, "raised": f"{type(error).__name__}: {error}"[:200]}
    return {"op": op, "x": x, "grad": encode(grad), "central": central, "forward": forward}


def _kink(value_class, h=1e-5):
    def f(at):
        return value_class(at).relu().data

    try:
        leaf = value_class(0.0)
        leaf.relu().backward()
        grad = encode(leaf.grad)
    except Exception as error:  # noqa: BLE001 - as in _curve
        return {"raised": f"{type(error).__name__}: {error}"[:200]}
    left, right = (f(0.0) - f(-h)) / h, (f(h) - f(0.0)) / h
    slope = (f(h) - f(-h)) / (2 * h)
    return {
        "h": h,
        "slope": encode(slope),
        "left": encode(left),
        "right": encode(right),
        "grad": grad,
    }


def _relative(a, b):
    """The course's own relative error (its reference answer's), encoded."""
    try:
        return encode(abs(a - b) / max(abs(a), abs(b), 1e-300))
    except Exception:  # noqa: BLE001 - a gradient that is not a number
        return encode(math.nan)
