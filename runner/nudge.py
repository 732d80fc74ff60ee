"""The nudge tool: an op's local derivatives measured by nudging each input of a check by h,
beside the gradient the learner's own code gives that input, on the learner's Value class.

It runs the learner's code, so in the browser it runs in a runner like any run (the page's
Python: a fresh one, thrown away after); it decides no verdict, it only measures.
"""

import ast
import json
import math

from .assembly import their_bodies
from .checker import sweep
from .checks import build_graph
from .errors import describe_exception, describe_syntax_error
from .numbers import encode
from .sandbox import CappedOutput, guarded
from .value_class import bodies_to_run, data, make_class, value_maker

DEFAULT_H = 1e-5  # small enough that the central difference agrees to 1e-6, large for rounding
MAX_MAGNITUDE = 1e6
KINK = 1e-3  # sides whose slopes differ by more than this share are a kink, not a curve


def nudge(exercise_id, bodies, values=None, h=DEFAULT_H, check_index=0, known=None):
    """`{"inputs": [{"name", "value", "slope", "got"}], "output", "h", "built", "error"}`: for
    each input of the exercise's check, (out(x + h) - out(x - h)) / 2h, and its `.grad` after the
    learner's `backward()` from out.grad = 1; `output`, out.data at those inputs. `values`
    ({name: number}) replace the check's own inputs, and `n` its exponent, if it has one.
    `known`: the runner's data (runner/value_class.py `data()` by default)."""
    known = data() if known is None else known
    exercise = known["exercises"][exercise_id]
    design = known["designs"][exercise["design"]]
    if exercise.get("sweeps"):  # a checker's plot: the learner's op code against h
        return _swept(design, bodies)
    check = exercise["checks"][check_index]
    leaves = {name: _number(value) for name, value in check["leaves"].items()}
    leaves |= {name: _number(v) for name, v in (values or {}).items() if name in leaves}
    h = _number(h) if _number(h) > 0 else DEFAULT_H
    build = check["build"]
    if "n" in (values or {}) and exponent(build) is not None:
        build = with_exponent(build, _number(values["n"]))
    found = {"inputs": [], "output": None, "h": h, "built": build, "error": None}
    used, theirs = bodies_to_run(exercise, design, bodies)
    try:
        value_class, slots = make_class(design, used, theirs)
    except SyntaxError as error:
        found["error"] = describe_syntax_error(error, error.slots)
        return found
    make = value_maker(design, value_class)

    def out_at(nudged):
        value = build_graph(build, nudged, check["output"], make)[0].data
        if isinstance(value, complex):  # a power's: (-2) ** 0.5
            raise NotReal
        return value

    with guarded(CappedOutput()):
        try:  # the forward passes: the course's code, and in local_grads the learner's tuples
            measured = {name: _slopes(out_at, leaves, name, h) for name in leaves}
            output, space = build_graph(build, leaves, check["output"], make)
        except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
            found["error"] = _at_inputs(describe_exception(error, slots), error, build, leaves)
            return found
        try:
            found["output"] = encode(output.data)
            output.backward()
            found["inputs"] = [
                {"name": name, "value": x, **measured[name], "got": _grad(space[name])}
                for name, x in leaves.items()
            ]
        except BaseException as error:  # noqa: BLE001 - learner code may raise anything at all
            found["error"] = describe_exception(error, slots)
    return found


class NotReal(ArithmeticError):
    """The output at the numbers nudged is not a real number."""


def _at_inputs(error, raised, build, leaves):
    """An error of the forward pass in the learner's terms: the numbers they chose cannot be
    worked out (the course's code raised, not theirs), unless their own code raised it."""
    if error["slot"] is not None:
        return error
    at = ", ".join(f"{name} = {value!r}" for name, value in leaves.items())
    why = (
        "it is not a real number there"
        if isinstance(raised, NotReal)
        else f"Python says {error['message'] or error['type']}"
    )
    said = f"{build} cannot be measured at {at} or beside it: {why}. Try other numbers"
    return error | {"summary": said, "text": said}


def _swept(design, bodies):
    """runner/checker.py's sweep of the learner's op code (`bodies`, {op: body}; the
    reference for an op not given), or the error that stopped it."""
    theirs = their_bodies(design, bodies)
    try:
        value_class, slots = make_class(design, design["references"] | theirs, theirs)
    except SyntaxError as error:
        return {"error": describe_syntax_error(error, error.slots)}
    return sweep(value_class) | {"error": None}


def nudge_json(exercise_id, bodies_json, values_json, h):
    """`nudge` for the browser's runner: JSON in, JSON out."""
    bodies, values = json.loads(bodies_json), json.loads(values_json)
    bodies = bodies if isinstance(bodies, dict) else {}
    values = values if isinstance(values, dict) else {}
    return json.dumps(nudge(exercise_id, bodies, values, h), allow_nan=False)


def _slopes(out_at, leaves, name, h):
    """`{"slope"}`: (out(x + h) - out(x - h)) / 2h for input `name`; at a kink, where the two
    sides' slopes differ (a ReLU at 0), `left` and `right` too: the central difference then
    averages them, and an op's derivative there is a choice (micrograd's ReLU takes 0)."""
    x, middle = leaves[name], out_at(leaves)
    right = (out_at(leaves | {name: x + h}) - middle) / h
    left = (middle - out_at(leaves | {name: x - h})) / h
    found = {"slope": encode((right + left) / 2)}
    if abs(right - left) > KINK * max(1.0, abs(right), abs(left)):
        found |= {"left": encode(left), "right": encode(right)}
    return found


def exponent(build):
    """The number a check's build raises to (`x ** 2`: 2), or None when it has no power; the
    build is an expression or statements, as a check's may be."""
    power = _power(ast.parse(build))
    return None if power is None else ast.literal_eval(power.right)


def with_exponent(build, n):
    """The build with its power's exponent replaced by `n` (a number, or a name to show): the
    exponent of `__pow__` is a plain number, which the learner may change, never code."""
    tree = ast.parse(build)
    if isinstance(n, str):
        _power(tree).right = ast.Name(n)
    else:
        _power(tree).right = ast.Constant(int(n) if float(n).is_integer() else n)
    return ast.unparse(tree)


def _power(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            try:
                ast.literal_eval(node.right)
            except ValueError:
                continue
            return node
    return None


def _number(value):
    """A finite float of a sensible size, from whatever the page sent (else 0.0)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return number if math.isfinite(number) and abs(number) <= MAX_MAGNITUDE else 0.0


def _grad(node):
    try:
        return encode(vars(node).get("grad"))
    except BaseException:  # noqa: BLE001 - a property of the learner's making may raise
        return {"type": "unreadable"}
