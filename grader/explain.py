"""The sentences a learner reads: what a value should have been and, when the grader can tell,
why the learner's code gave something else.

DIAGNOSES maps each diagnosis key to its sentence: the keys of how a step can go wrong in any
op, and every op's own classic wrong rules (grader/ops.py). Known-wrong answers
(`exercises/*/.meta/wrong_answers.toml`) name the keys they must get.
"""

from .figures import seven
from .ops import OPS

STRUCTURAL = {
    "nothing": "Your code changed no gradient: it is still the starter code, or it computes "
    "something without adding it to `self.grad` (and `other.grad`).",
    "local_only": "Your code assigns only to names of its own: nothing reaches the inputs. "
    "Add each share into `self.grad` (and `other.grad`) with `+=`.",
    "nested_def": "Your code defines a function of its own and never calls it, so it does "
    "nothing. Write only the body, the lines that go inside `def _backward():`, starting at "
    "the left margin: the editor is already inside the closure.",
    "assign": "A node that feeds more than one edge receives a gradient along each of them; "
    "`=` keeps only the last one and throws the others away. Use `+=` so they add up.",
    "no_upstream": "By the chain rule the local derivative must be multiplied by `out.grad`, "
    "the gradient arriving from above; here `out.grad` is not 1, so leaving it out shows.",
    "one_operand": "Only `self.grad` changed: `other` is an input too and needs its own line, "
    "`other.grad += ...`.",
    "twice": "Each input must receive its share once per use: your code adds the same "
    "contribution twice.",
    "grad_for_data": "Your code reads `.grad` where `.data` belongs: a local derivative is made "
    "of values (`self.data`, `other.data`, `out.data`), while `.grad` holds gradients that are "
    "still being summed. Only `out.grad`, the gradient arriving from above, multiplies it.",
    "calls_closure": "Your closure calls another node's `_backward()`. `backward()` calls every "
    "closure itself, once, in the right order, so the nodes below receive their contributions "
    "twice. A closure only passes its own node's gradient to its inputs.",
    "calls_backward": "Your closure calls `backward()`, which walks the graph again from that "
    "node and sets its grad to 1, so gradients are overwritten or counted twice (and a node "
    "that calls its own `backward()` never stops). A closure only passes its own node's "
    "gradient to its inputs; `backward()` is called once, on the output.",
    "wrong_node": "Your code changes the gradient of a node that is not one of the op's "
    "inputs (such as `out.grad`): a closure updates `self.grad` and, for two inputs, "
    "`other.grad`, and nothing else.",
    "data_changed": "Your code changes `.data`, the values of the forward pass, where it should "
    "add to `.grad`.",
    "not_a_number": "A gradient must be a number (a float): keep Values out of it, using "
    "`other.data` or `out.data` where you wrote `other` or `out`.",
    "not_finite": "A gradient became nan or infinity: a division by zero, the log or power of "
    "a number that does not allow it, or a number that overflowed.",
    "not_in_scope": "Your code uses a name that does not exist where it runs.",
    "builtin_name": "A name in your code is one of Python's built-in functions, not a Value "
    "or a number of this op.",
    "not_a_tuple": "The local gradients must be a tuple with one number per input, such as "
    "`(1, 1)` for two inputs or `(x,)` for one (mind the comma).",
    "wrong_length": "The tuple needs exactly one local derivative per input: two for "
    "`__add__` and `__mul__`, one for every other op. `backward()` pairs them with the "
    "inputs, so a missing one is silently skipped.",
    "tuple_order": "The local derivatives are in the wrong order: the first belongs to "
    "`self`, the second to `other`.",
    "unexplained": "",
}


def diagnoses():
    """Every diagnosis key and its sentence: the structural ones, then each op's own."""
    found = dict(STRUCTURAL)
    for op in OPS.values():
        found.update({key: wrong.explanation for key, wrong in op.wrong.items()})
    return found


DIAGNOSES = diagnoses()


def sentence(keys):
    return " ".join(diagnoses()[key] for key in keys if diagnoses()[key])


def expected_sentence(name, expected, uses):
    """What `name.grad` should be and where that number comes from; `uses` are the ops that
    consume the node, once per edge."""
    if len(uses) > 1:
        how = f"{name} feeds {len(uses)} edges, so its grad is the sum of {len(uses)} contributions"
    elif uses:
        how = f"{OPS[uses[0]].rule}, from {name}'s one edge"
    else:
        how = "the gradient seeded into it"
    return f"{name}.grad should be {seven(expected)}: {how}."


def not_a_number_sentence(name, kind):
    if kind == "Value":
        return (
            f"{name}.grad became a Value, not a number: use `other.data` or `out.data` "
            "(the numbers) where you wrote `other` or `out`."
        )
    if kind in ("nan", "inf", "-inf"):
        return f"{name}.grad became {kind}, not a number that can be compared."
    return f"{name}.grad became a {kind}, not a number."


def scope_sentence(label, names):
    listed = ", ".join(f"`{name}`" for name in names[:-1]) + f" and `{names[-1]}`"
    return f"Your {label} code can use {listed}."


def not_in_scope_sentence(name, label, names):
    return f"`{name}` is not defined in your {label} code. {scope_sentence(label, names)}"


def builtin_sentence(name, label, names):
    return (
        f"`{name}` is Python's built-in `{name}`, not a name of this op: your code never "
        f"set it. {scope_sentence(label, names)}"
    )
