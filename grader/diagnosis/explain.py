"""The sentences a learner reads: what a value should have been and, when the grader can tell,
why the learner's code gave something else.

DIAGNOSES maps each diagnosis key to its sentence: the keys of how a step can go wrong in any
op, and every op's own classic wrong rules (grader/ops.py). Known-wrong answers
(`exercises/*/.meta/wrong_answers.toml`) name the keys they must get.
"""

from ..figures import brief
from ..ops import OPS

STRUCTURAL = {
    "nothing": "Your code changed no gradient: it is still the starter code, or it computes "
    "something without adding it to the inputs' grads.",
    "local_only": "Your code assigns only to names of its own: nothing reaches the inputs. "
    "Add each share into the inputs' grads with `+=`.",
    "nested_def": "Your code defines a function of its own and never calls it, so it does "
    "nothing. Write only the body, the lines that go inside `def _backward():`, starting at "
    "the left margin: the editor is already inside the closure.",
    "assign": "A node used more than once receives a share from each use, and `=` keeps only "
    "the last one. Use `+=` so the shares add up.",
    "no_upstream": "By the chain rule the local derivative must be multiplied by `out.grad`, "
    "the gradient arriving from above; here `out.grad` is not 1, so leaving it out shows.",
    "one_operand": "Only `self.grad` changed: `other` is an input too and needs its own line, "
    "`other.grad += ...`.",
    "twice": "Each input must receive its share once per use: your code adds the same "
    "contribution twice.",
    "opposite_sign": "Your slope has the opposite sign at every point: its size is right, its "
    "sign is not. Look for a difference taken the wrong way round, a `-` too many, or `-=` where "
    "`+=` belongs.",
    "grad_for_data": "Your code reads `.grad` where `.data` belongs: a local derivative is made "
    "of values (`self.data`, `other.data`, `out.data`), while `.grad` holds gradients that are "
    "still being summed. Only `out.grad`, the gradient arriving from above, multiplies it.",
    "calls_closure": "`backward()` already runs every closure once, in order, so a closure that "
    "calls another node's `_backward()` runs it twice. A closure only passes its own node's "
    "gradient to its inputs.",
    "calls_backward": "A closure that calls `backward()` starts a second backward pass from its "
    "own node, which sets that node's grad to 1. `backward()` is called once, on the output; a "
    "closure only passes its own node's gradient to its inputs.",
    "wrong_node": "Your code changes the gradient of a node that is not one of the op's "
    "inputs (such as `out.grad`): a closure updates `self.grad` and, for two inputs, "
    "`other.grad`, and nothing else.",
    "data_changed": "Your code changes `.data`, the values of the forward pass, where it should "
    "add to `.grad`.",
    "not_a_number": "A gradient must be a number (a float): keep Values out of it, using "
    "`self.data` or `out.data` where you wrote `self` or `out` (the op's Values).",
    "not_finite": "A gradient became nan or infinity: a division by zero, the log or power of "
    "a number that does not allow it, or a number that overflowed.",
    "not_in_scope": "Your code uses a name that does not exist where it runs.",
    "builtin_name": "A name in your code is one of Python's built-in functions, not a Value "
    "or a number of this op.",
    "not_a_tuple": "The local gradients must be a tuple with one number per input, such as "
    "`(a, b)` for two inputs or `(a,)` for one (mind the comma).",
    "wrong_length": "The tuple needs exactly one local derivative per input: two for "
    "`__add__` and `__mul__`, one for every other op. `backward()` pairs them with the "
    "inputs, so a missing one is silently skipped.",
    "tuple_order": "The local derivatives are in the wrong order: the first belongs to "
    "`self`, the second to `other`.",
    "unexplained": "",
    # crashes (grader/diagnosis/crashes.py), each said with the learner's line and names
    "indented": "Code indented where Python does not expect it.",
    "tuple_expected": "A statement where the tab takes one expression, a tuple.",
    "unclosed_bracket": "A bracket never closed, or closed twice.",
    "assigned_local": "An assignment to a name that makes it the closure's own.",
    "exponent_is_a_number": "`other.data` in `__pow__`, whose exponent is a plain number.",
    "number_for_value": "A number's `.grad` or `.data` read where the Value's belongs.",
    "compare_value": "A Value compared with a number.",
    "standard_library_only": "A module the course's Python does not have.",
}

# keys whose sentence is made with the learner's own names and lines when diagnosed: the
# sentences above only describe them (for the maintainers' table)
SAID_WITH_NAMES = {
    "not_in_scope",
    "builtin_name",
    "indented",
    "tuple_expected",
    "unclosed_bracket",
    "assigned_local",
    "exponent_is_a_number",
    "number_for_value",
    "compare_value",
    "standard_library_only",
}


def grad_of(name):
    """`name.grad`, as Python reads it: `x.grad`, `(n * 2).grad`, `(2.5).grad`."""
    return f"{name}.grad" if name.isidentifier() else f"({name}).grad"


def diagnoses():
    """Every diagnosis key and its sentence: the structural ones, then each op's own."""
    found = dict(STRUCTURAL)
    for op in OPS.values():
        found.update({key: wrong.explanation for key, wrong in op.wrong.items()})
    return found


DIAGNOSES = diagnoses()

# what a teacher calls each cause, in a few words (the class report's tables and charts,
# grader/cli/class_report.py): every key of DIAGNOSES and of grader/checker.py's DIAGNOSES
NAMES = {
    "nothing": "no gradient changed",
    "local_only": "grads never reached",
    "nested_def": "def never called",
    "assign": "= for +=",
    "no_upstream": "missing out.grad",
    "one_operand": "missing other.grad",
    "twice": "share added twice",
    "opposite_sign": "sign flipped",
    "grad_for_data": ".grad for .data",
    "calls_closure": "calls _backward()",
    "calls_backward": "calls backward()",
    "wrong_node": "wrong node's grad",
    "data_changed": "changes .data",
    "not_a_number": "grad not a number",
    "not_finite": "nan or infinity",
    "not_in_scope": "undefined name",
    "builtin_name": "built-in as a name",
    "not_a_tuple": "not a tuple",
    "wrong_length": "tuple of wrong length",
    "tuple_order": "tuple out of order",
    "unexplained": "cause not found",
    "indented": "unexpected indent",
    "tuple_expected": "statement for a tuple",
    "unclosed_bracket": "unclosed bracket",
    "assigned_local": "assignment makes a local",
    "exponent_is_a_number": "other.data in __pow__",
    "number_for_value": "number for a Value",
    "compare_value": "Value compared",
    "standard_library_only": "module not available",
    "add_like_mul": "+ derived like *",
    "mul_swapped": "operands swapped",
    "mul_self_twice": "self.data for both",
    "pow_exponent_kept": "exponent not lowered",
    "pow_no_factor": "factor n missing",
    "tanh_input": "x for t in tanh",
    "tanh_not_squared": "1 - t, not 1 - t²",
    "exp_input": "x for e**x",
    "relu_value": "value for slope",
    "relu_unmasked": "relu unmasked",
    "relu_at_zero": ">= for >",
    "log_no_reciprocal": "x for 1/x",
    "log_output": "1/out for 1/x",
    "sigmoid_input": "x for s in sigmoid",
    "sigmoid_one_factor": "1 - s missing",
    "sigmoid_missing_s": "s missing",
    # the gradient checker's
    "forward": "one-sided difference",
    "absolute": "absolute error",
    "h_too_small": "h too small",
    "h_too_large": "h too large",
}


def sentence(keys):
    return " ".join(diagnoses()[key] for key in keys if diagnoses()[key])


def words(key, exercise, told):
    """The sentence of diagnosis `key` as the learner reads it on their rung (`told`: the ops
    whose rule may be said, grader/disclosure.py), in the exercise's design."""
    closures = exercise.design == "closures"
    owner = next((op for op in OPS.values() if key in op.wrong), None)
    if owner:
        wrong = owner.wrong[key]
        if owner.name not in told:
            return wrong.below
        return wrong.explanation if closures or not wrong.local else wrong.local
    if key == "not_a_number":
        return not_a_number_words(exercise.design, values_of(exercise.design, exercise.ops))
    if key == "opposite_sign" and not closures:
        return (
            "Your local gradient has the opposite sign at every point: its size is right, its "
            "sign is not. Look for a difference taken the wrong way round or a `-` too many."
        )
    if key == "nothing" and not closures:
        return (
            "Your local gradients are all 0, so `backward()` passes nothing back: every input's "
            "grad stays 0. The tuple is still the starter code, or its numbers are 0."
        )
    if key in ("nothing", "local_only"):
        grads = "`self.grad`"
        if any(OPS[op].arity == 2 for op in exercise.ops):
            grads += " (and `other.grad`)" if len(exercise.ops) > 1 else " and `other.grad`"
        return STRUCTURAL[key].replace("the inputs' grads", grads)
    return STRUCTURAL[key]


def expected_sentence(name, expected, uses, design="closures", told=frozenset()):
    """What `name.grad` should be and where that number comes from; `uses` are the ops that
    consume the node, once per use. In the local-gradients design `backward()` adds the
    shares up, not the learner's code. An op's rule is said only when it is `told`."""
    if len(uses) > 1 and design == "closures":
        how = f"{name} is used {len(uses)} times, and each use's closure adds its share"
    elif len(uses) > 1:
        how = f"`backward()` adds up the shares of {name}'s {len(uses)} uses"
    elif uses and uses[0] in told and design == "closures":
        how = f"{OPS[uses[0]].rule}, from {name}'s one use"
    elif uses and uses[0] in told:
        op = OPS[uses[0]]
        how = (
            f"`{op.label}`'s tuple {op.local_rule}, times the output's grad, from {name}'s one use"
        )
    elif uses:
        where = f"from {name}'s one use, in `{OPS[uses[0]].label}`"
        return f"{grad_of(name)} should be {brief(expected)}, {where}."
    else:
        how = "the gradient seeded into it"
    return f"{grad_of(name)} should be {brief(expected)}: {how}."


def values_of(design, ops):
    """The Values the code of `ops` can name: `self`, `other` where an op takes a second Value,
    and `out` in the closures design."""
    found = ["self"]
    if any(OPS[op].arity == 2 and not OPS[op].power for op in ops):
        found.append("other")
    return found + (["out"] if design == "closures" else [])


def _instead(names):
    """`where you wrote `self`, use `self.data``: each Value's numbers (`out` holds the
    gradient arriving from above as well as its value)."""
    numbers = [f"`{name}.data`" for name in names] + (["`out.grad`"] if "out" in names else [])
    return (
        f"where you wrote {' or '.join(f'`{name}`' for name in names)}, use {' or '.join(numbers)}"
    )


def not_a_number_words(design, names):
    """Keep Values out of a gradient, naming the Values (`names`) the code put there."""
    given = "A gradient" if design == "closures" else "A local gradient"
    return f"{given} must be a number (a float), not a Value: {_instead(names)}."


def not_a_number_sentence(name, kind, names=("self", "out")):
    """Why a grad is not a number; `names`, the Values the code may have put in it."""
    if kind == "Value":
        return f"{grad_of(name)} became a Value, not a number: {_instead(names)}."
    if kind in ("nan", "inf", "-inf"):
        return f"{grad_of(name)} became {kind}, not a number that can be compared."
    return f"{grad_of(name)} became a {kind}, not a number."


def scope_sentence(label, names):
    listed = ", ".join(f"`{name}`" for name in names[:-1]) + f" and `{names[-1]}`"
    return f"Your {label} code can use {listed}."


def not_in_scope_sentence(name, label, names, design="closures"):
    said = f"`{name}` is not defined in your {label} code. {scope_sentence(label, names)}"
    if design != "closures" and name == "out":
        said += (
            " The tuple holds the local derivatives alone: `backward()` multiplies each by the "
            "output's grad itself."
        )
    return said


def builtin_sentence(name, label, names):
    return (
        f"`{name}` is Python's built-in `{name}`, not a name of this op: your code never "
        f"set it. {scope_sentence(label, names)}"
    )
