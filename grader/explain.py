"""The sentences a learner reads: what was expected and, for a classic mistake, why not."""

from .precision import shown

MISTAKES = {
    "nothing": "Your code changed no gradient: it is still the starter stub, or it assigns only "
    "to local names instead of `self.grad` and `other.grad`.",
    "assign": "A node that feeds more than one edge receives a gradient along each of them; "
    "`=` keeps only the last one and throws the others away. Use `+=` so they add up.",
    "no_upstream": "By the chain rule the local derivative must be multiplied by `out.grad`, the "
    "gradient arriving from above; here `out.grad` is not 1, so leaving it out shows.",
    "one_operand": "Only `self.grad` changed: `other` is an input too and needs its own line, "
    "`other.grad += ...`.",
    "add_like_mul": "For a sum each input's local derivative is 1: the other operand's data "
    "belongs in the rule for multiplication, not addition.",
    "mul_swapped": "The operands are swapped: d(self*other)/d(self) is `other.data`, and "
    "d(self*other)/d(other) is `self.data`.",
    "pow_exponent_kept": "The power rule lowers the exponent by one: d(x**n)/dx is "
    "`n * x**(n - 1)`, not `n * x**n`.",
    "pow_no_factor": "The power rule keeps the exponent as a factor in front: d(x**n)/dx is "
    "`n * x**(n - 1)`, not `x**(n - 1)`.",
    "tanh_input": "Use the output, not the input: d(tanh x)/dx is 1 - tanh(x)**2, which is "
    "`1 - out.data**2`; `self.data` is x itself.",
    "tanh_not_squared": "d(tanh x)/dx is 1 - tanh(x)**2: square `out.data` before subtracting.",
    "exp_input": "d(e**x)/dx is e**x itself, which is `out.data`; `self.data` is the input x.",
}

# how each op's contribution to an input's gradient is computed
RULES = {
    "add": "1 × out.grad",
    "mul": "the other operand's data × out.grad",
    "pow": "n·x**(n-1) × out.grad",
    "tanh": "(1 - out.data**2) × out.grad",
    "exp": "out.data × out.grad",
}


def mistake_sentence(keys):
    return " ".join(MISTAKES[key] for key in keys)


def expected_sentence(name, expected, uses):
    """What `name.grad` should be and where that number comes from."""
    if len(uses) > 1:
        how = f"{name} feeds {len(uses)} edges, so its grad is the sum of {len(uses)} contributions"
    else:
        how = f"{RULES[uses[0]]}, from {name}'s one edge" if uses else "the gradient seeded into it"
    return f"{name}.grad should be {shown(expected)}: {how}."


def not_a_number(name, got):
    kind = type(got).__name__
    if kind == "Value":
        return (f"{name}.grad became a Value, not a number: use `other.data` or `out.data` "
                "(the numbers) where you wrote `other` or `out`.")
    return f"{name}.grad became a {kind}, not a number."
