"""The ops of the Value class, one entry each: everything the course knows about an op.

An entry holds its label (the method's name), how many Values it takes, its forward
computation, its local derivatives, the classic wrong local derivatives with the sentence each
deserves, the rule as learners read it, and its method in each class design (scaffold.py).
The scaffold's slots, the answer key, the explanations and the diagnoses all derive from here.

Adding an op: one `register(Op(...))` below, and an exercise folder for it in each design it
has a method in (AUTHORING.md).

Local rules are functions of `Args`: the numbers the op's closure reads (`x` is self.data,
`y` other.data, `out` out.data, `n` the exponent of a power). Passing grads instead of data
gives what a closure computes that reads `.grad` where `.data` belongs.
"""

import math
from collections import namedtuple
from dataclasses import dataclass, field

Args = namedtuple("Args", "x y out n")

# the closure design: micrograd's, where each op attaches a `_backward` closure to its output
CLOSURES = "closures"
# the local-gradients design: microgpt's, where each op stores a tuple of local derivatives
LOCAL_GRADS = "local_grads"


@dataclass(frozen=True)
class Wrong:
    """A classic wrong local derivative: what it computes, and why it is wrong, said twice: with
    the derivative (`explanation`, from the formula rung on) and without it (`below`: what the
    numbers show and where to measure, below it; grader/disclosure.py)."""

    rule: object  # Args -> tuple, like Op.local
    explanation: str
    below: str
    local: str = ""  # the explanation in the local-gradients design, where it differs


@dataclass(frozen=True)
class Op:
    name: str  # the slot: "add"
    label: str  # the method: "__add__"
    symbol: str  # what graphs draw on the op's node: "+"
    arity: int  # how many Values it takes: 2 for add and mul, 1 otherwise
    forward: object  # Args -> out.data (Args.out is None)
    local: object  # Args -> the local derivative for each Value operand, in order
    rule: str  # the chain rule for one input, as a sentence fragment: "1 × out.grad"
    methods: dict  # design -> the method's source, with a `{body}` line for the learner's code
    wrong: dict = field(default_factory=dict)  # diagnosis key -> Wrong
    # every way the local derivative is written, in code, symbols or words (regular expressions
    # over text as grader/disclosure.py normalizes it): no text below the formula rung matches
    tells: tuple = ()
    power: bool = False  # the second operand is a plain number (the exponent), not a Value
    local_rule: str = ""  # the local-gradients design's tuple, as learners read it: "(1, 1)"


OPS = {}


def register(op):
    """Adds `op` to the Value class of every design it has a method for."""
    OPS[op.name] = op
    return op


def ops_of(design):
    """The ops of a design, in the order the class defines them."""
    return [op for op in OPS.values() if design in op.methods]


def _unary(name, call, computed, body_free=""):
    """The method of a one-input op in the closure design: `x` is `self.data`."""
    return (
        f"    def {name}(self):\n"
        "        x = self.data\n"
        f"{body_free}"
        f'        out = Value({computed}, (self,), "{call}")\n\n'
        "        def _backward():\n"
        "{body}\n"
        "        out._backward = _backward\n"
        "        return out\n"
    )


def _local_unary(name, computed, before=""):
    """The method of a one-input op in the local-gradients design."""
    return (
        f"    def {name}(self):\n"
        "        x = self.data\n"
        f"{before}"
        "        local_grads = (\n"
        "{body}\n"
        "        )\n"
        f"        return Value({computed}, (self,), local_grads)\n"
    )


def _binary(name, sign):
    return (
        f"    def {name}(self, other):\n"
        "        other = other if isinstance(other, Value) else Value(other)\n"
        f'        out = Value(self.data {sign} other.data, (self, other), "{sign}")\n\n'
        "        def _backward():\n"
        "{body}\n"
        "        out._backward = _backward\n"
        "        return out\n"
    )


def _local_binary(name, sign):
    return (
        f"    def {name}(self, other):\n"
        "        other = other if isinstance(other, Value) else Value(other)\n"
        "        local_grads = (\n"
        "{body}\n"
        "        )\n"
        f"        return Value(self.data {sign} other.data, (self, other), local_grads)\n"
    )


register(
    Op(
        name="add",
        label="__add__",
        symbol="+",
        arity=2,
        forward=lambda a: a.x + a.y,
        local=lambda a: (1.0, 1.0),
        rule="1 × out.grad",
        local_rule="(1, 1)",
        tells=(
            r"(?<![\d.*-])1(\.0)?\*out\.grad",
            r"\(1(\.0)?,1(\.0)?,?\)",
            r"(self|other)\.grad\+=(1(\.0)?\*)?out\.grad",
            r"∂out/∂(self|other)=(∂out/∂(self|other)=)?1",
            r"∂\(self\+other\)/∂(self|other)=1",
            r"local derivatives? (is|are|of a sum is) (both )?(1|one)\b",
            r"receives? out\.grad (as it is|unchanged)",
        ),
        methods={CLOSURES: _binary("__add__", "+"), LOCAL_GRADS: _local_binary("__add__", "+")},
        wrong={
            "add_like_mul": Wrong(
                lambda a: (a.y, a.x),
                "For a sum each input's local derivative is 1: the other operand's data "
                "belongs in the rule for multiplication, not addition.",
                "Your code's shares change with the inputs' values. Nudge x with two "
                "different values of y: does the sum's slope change?",
            )
        },
    )
)

register(
    Op(
        name="mul",
        label="__mul__",
        symbol="*",
        arity=2,
        forward=lambda a: a.x * a.y,
        local=lambda a: (a.y, a.x),
        rule="the other operand's data × out.grad",
        local_rule="(other.data, self.data)",
        tells=(
            r"other(\.data)?\*out\.grad",
            r"out\.grad\*(other(\.data)?|self\.data)",
            r"self\.data\*out\.grad",
            r"\(other(\.data)?,self(\.data)?,?\)",
            r"d\(self\*other\)/d\(?(self|other)\)?(is|=)",
            r"∂\(?(out|self\*other)\)?/∂self=other",
            r"other (operand|input)'s (data|value)",
            r"(local derivative|share) is the other",
            r"swaps? the values",
        ),
        methods={CLOSURES: _binary("__mul__", "*"), LOCAL_GRADS: _local_binary("__mul__", "*")},
        wrong={
            "mul_swapped": Wrong(
                lambda a: (a.x, a.y),
                "The operands are swapped: d(self*other)/d(self) is `other.data`, and "
                "d(self*other)/d(other) is `self.data`.",
                "Each input got the share that belongs to the other one: nudge each input in "
                "turn and compare its slope with the share your code gave it.",
            ),
            "mul_self_twice": Wrong(
                lambda a: (a.x, a.x),
                "Each input's local derivative is the other input's data: "
                "d(self*other)/d(self) is `other.data`, not `self.data`.",
                "Both inputs got a share made from self's value: nudge y and compare its slope "
                "with what your code gave y.",
            ),
        },
    )
)

register(
    Op(
        name="pow",
        label="__pow__",
        symbol="**",
        arity=1,
        power=True,
        forward=lambda a: a.x**a.n,
        local=lambda a: (a.n * a.x ** (a.n - 1),),
        rule="n·x**(n-1) × out.grad",
        local_rule="(n·x**(n-1),), with n = other",
        tells=(
            r"(n|other)\*(x|self\.data)\*\*\(?(n|other)-1",
            r"\*\*\((n|other)-1\)",
            r"exponent times x",
            r"one less than the exponent",
            r"lowers? the exponent by one",
        ),
        methods={
            CLOSURES: (
                "    def __pow__(self, other):\n"
                '        assert isinstance(other, (int, float)), "only int or float exponents"\n'
                "        x = self.data\n"
                '        out = Value(x**other, (self,), f"**{other}")\n\n'
                "        def _backward():\n"
                "{body}\n"
                "        out._backward = _backward\n"
                "        return out\n"
            ),
            LOCAL_GRADS: (
                "    def __pow__(self, other):\n"
                '        assert isinstance(other, (int, float)), "only int or float exponents"\n'
                "        x = self.data\n"
                "        local_grads = (\n"
                "{body}\n"
                "        )\n"
                "        return Value(x**other, (self,), local_grads)\n"
            ),
        },
        wrong={
            "pow_exponent_kept": Wrong(
                lambda a: (a.n * a.x**a.n,),
                "The power rule lowers the exponent by one: d(x**n)/dx is "
                "`n * x**(n - 1)`, not `n * x**n`.",
                "Your code's slope grows too fast with x: measure the slope at two values "
                "of x and compare each with yours.",
            ),
            "pow_no_factor": Wrong(
                lambda a: (a.x ** (a.n - 1),),
                "The power rule keeps the exponent as a factor in front: d(x**n)/dx is "
                "`n * x**(n - 1)`, not `x**(n - 1)`.",
                "Your code's slope is off by the same factor at every x: keep x, change the "
                "exponent, and watch how the measured slope and yours move apart.",
            ),
        },
    )
)

register(
    Op(
        name="tanh",
        label="tanh",
        symbol="tanh",
        arity=1,
        forward=lambda a: math.tanh(a.x),
        local=lambda a: (1 - a.out**2,),
        rule="(1 - t**2) × out.grad (t = out.data)",
        tells=(
            r"1-\(?(t|out\.data|tanh\((x|n)\))\)?\*\*2",
            r"1-(t\*t|out\.data\*out\.data)",
            r"1(\.0)?-\(?(t|out\.data|(math\.)?tanh\((x|n|self\.data)\))\)?\*\*2",
            r"1-tanh\*\*2",
            r"\(1-t\)\*\(1\+t\)",
            r"sech",
            r"(one|1) minus the square",
        ),
        methods={
            CLOSURES: _unary(
                "tanh",
                "tanh",
                "t",
                body_free="        t = (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1)\n",
            )
        },
        wrong={
            "tanh_input": Wrong(
                lambda a: (1 - a.x**2,),
                "Use the output, not the input: d(tanh x)/dx is 1 - tanh(x)**2, which is "
                "`1 - t**2` or `1 - out.data**2`; `x` (`self.data`) is the input itself.",
                "Your code computes the slope from the input, x: the prompt asks for a "
                "formula in the output, t. Measure the slope and compare it with t.",
            ),
            "tanh_not_squared": Wrong(
                lambda a: (1 - a.out,),
                "d(tanh x)/dx is 1 - tanh(x)**2: square `t` (`out.data`) before subtracting.",
                "Your code's slope is close only near x = 0: measure the slope at x = 2 and at "
                "x = -2 and compare both with yours.",
            ),
        },
    )
)

register(
    Op(
        name="exp",
        label="exp",
        symbol="exp",
        arity=1,
        forward=lambda a: math.exp(a.x),
        local=lambda a: (a.out,),
        rule="out.data × out.grad",
        local_rule="(math.exp(x),)",
        tells=(
            r"out\.data\*out\.grad",
            r"math\.exp\(x\)\*out\.grad",
            r"frac\(d\)\(dx\)e\*\*x=e\*\*x",
            r"\(?e\*\*x\)?/(∂|d)x(=|is)e\*\*x",
            r"its own (slope|derivative)",
            r"(local derivative|slope) is (e\*\*x|the output|its output|out\.data)",
            r"output is (also )?the local derivative",
            r"the output's own value",
            r"\(math\.exp\(x\),?\)",
        ),
        methods={
            CLOSURES: _unary("exp", "exp", "math.exp(x)"),
            LOCAL_GRADS: _local_unary("exp", "math.exp(x)"),
        },
        wrong={
            "exp_input": Wrong(
                lambda a: (a.x,),
                "d(e**x)/dx is e**x itself, which is `out.data` (or `math.exp(x)`); `x` "
                "(`self.data`) is the input.",
                "Your code computes the slope from the input, x: measure the slope at x = 0, "
                "1 and 2 and compare each with what your code gives there.",
                "d(e**x)/dx is e**x itself, which the tuple computes as `math.exp(x)`; `x` "
                "(`self.data`) is the input.",
            )
        },
    )
)

register(
    Op(
        name="relu",
        label="relu",
        symbol="ReLU",
        arity=1,
        forward=lambda a: 0.0 if a.x < 0 else a.x,
        local=lambda a: (float(a.out > 0),),
        rule="(1 if out.data > 0 else 0) × out.grad",
        local_rule="(float(x > 0),)",
        tells=(
            r"\(?out\.data>0(\.0)?\)?\*out\.grad",
            r"float\((out\.data|x|self\.data)>0\)",
            r"1if(out\.data|x|self\.data)>0else0",
            r"1where(x|out|out\.data)>0",
            r"1&text\(if\)x>0",
            r"\((out\.data|x|self\.data)>0(\.0)?\)",
            r"slope is 1 where",
            r"1 or 0, depending on the sign",
        ),
        methods={
            CLOSURES: _unary("relu", "ReLU", "0.0 if x < 0 else x"),
            LOCAL_GRADS: _local_unary("relu", "0.0 if x < 0 else x"),
        },
        wrong={
            "relu_value": Wrong(
                lambda a: (a.out,),
                "ReLU's slope is 1 where it is positive and 0 elsewhere: use "
                "`(out.data > 0)`, the slope, not `out.data`, the value.",
                "Your code's slope changes with x where the ReLU rises: nudge x at two "
                "positive values and compare.",
                "ReLU's slope is 1 where it is positive and 0 elsewhere: use `float(x > 0)`, the "
                "slope, not the ReLU's value.",
            ),
            "relu_unmasked": Wrong(
                lambda a: (1.0,),
                "ReLU passes the gradient only where its input was positive: multiply by "
                "`(out.data > 0)`, so that a negative input gets 0.",
                "Your code gives a negative input a share: nudge x where it is negative and "
                "see how far the output moves.",
                "ReLU passes the gradient only where its input was positive: use `float(x > 0)`, "
                "so that a negative input gets 0.",
            ),
            "relu_at_zero": Wrong(
                lambda a: (float(a.x >= 0),),
                "At exactly 0 micrograd's ReLU is flat: the slope there is 0, so compare with "
                "`> 0`, not `>= 0`.",
                "Your code gives x = 0 a share: micrograd takes the flat side's slope at the "
                "kink, the side where x is negative.",
            ),
        },
    )
)

register(
    Op(
        name="log",
        label="log",
        symbol="log",
        arity=1,
        forward=lambda a: math.log(a.x),
        local=lambda a: (1 / a.x,),
        rule="(1 / x) × out.grad",
        local_rule="(1 / x,)",
        tells=(
            r"(?<![\d.])1(\.0)?/(x|self\.data)(?![\w*(])",
            r"frac\(1\)\((x|self\.data)\)",
            r"out\.grad/(x|self\.data)(?![\w(])",
            r"1overx",
            r"reciprocal of (x|the input)",
            r"one over (x|the input)",
            r"(∂|d)ln\(?x\)?/(∂|d)x(=|is)",
        ),
        methods={
            CLOSURES: _unary("log", "log", "math.log(x)"),
            LOCAL_GRADS: _local_unary("log", "math.log(x)"),
        },
        wrong={
            "log_no_reciprocal": Wrong(
                lambda a: (a.x,),
                "d(ln x)/dx is 1/x: the input belongs in the denominator, `1 / x`.",
                "Your code's slope grows with x where the measured one shrinks: nudge x at "
                "a small and a large value and compare.",
            ),
            "log_output": Wrong(
                lambda a: (1 / a.out,),
                "d(ln x)/dx is 1 over the input, `1 / x` (`1 / self.data`), not over the "
                "output `out.data`.",
                "Your code computes the slope from the output: measure the slope at a few "
                "values of x and compare it with x and with the output.",
                "d(ln x)/dx is 1 over the input, `1 / x` (`1 / self.data`), not over the "
                "logarithm it returns.",
            ),
        },
    )
)

SIGMOID = "        s = 1 / (1 + math.exp(-x))\n"

register(
    Op(
        name="sigmoid",
        label="sigmoid",
        symbol="σ",
        arity=1,
        forward=lambda a: 1 / (1 + math.exp(-a.x)),
        local=lambda a: (a.out * (1 - a.out),),
        rule="s·(1 - s) × out.grad (s = out.data)",
        local_rule="(s·(1 - s),)",
        tells=(
            r"(s|out\.data|σ\(x\))\*?\(1(\.0)?-(s|out\.data|σ\(x\))\)",
            r"s-s\*\*2",
            r"\(1-(s|out\.data)\)\*(s|out\.data)",
            r"σ'\(x\)=",
            r"s times (one minus s|\(?1 - s\)?)",
            r"factors?,? s and 1 - s",
        ),
        methods={
            CLOSURES: _unary("sigmoid", "sigmoid", "s", body_free=SIGMOID),
            LOCAL_GRADS: _local_unary("sigmoid", "s", before=SIGMOID),
        },
        wrong={
            "sigmoid_input": Wrong(
                lambda a: (a.x * (1 - a.x),),
                "Use the output, not the input: the sigmoid's slope is made of s, its output "
                "(`s`, `out.data`), not of x (`self.data`).",
                "Your code computes the slope from the input, x: the prompt asks for a "
                "formula in the output, s. Measure the slope and compare it with s.",
                "Use the output, not the input: the sigmoid's slope is made of s, its output "
                "(`s`), not of x (`self.data`).",
            ),
            "sigmoid_one_factor": Wrong(
                lambda a: (a.out,),
                "The sigmoid's slope has two factors, s and 1 - s: it is largest at x = 0, where "
                "s is one half, and vanishes on both sides.",
                "Your code's slope does not fall to 0 where x is large and positive: measure "
                "the slope at x = 5 and compare it with yours.",
            ),
            "sigmoid_missing_s": Wrong(
                lambda a: (1 - a.out,),
                "The sigmoid's slope has two factors, s and 1 - s: with 1 - s alone it would "
                "not vanish where x is very negative.",
                "Your code's slope does not fall to 0 where x is large and negative: measure "
                "the slope at x = -5 and compare it with yours.",
            ),
        },
    )
)
