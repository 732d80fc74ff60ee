"""Why the learner's numbers are wrong, and whose code made them so.

Each step of the learner's backward pass (one closure call, or one node's tuple of local
gradients) is held against its op's rule and every classic way of bending it (a `Variant`),
starting from the grads the step really started from: a mistake upstream never blames the
code downstream. An op's diagnosis is the simplest Variant that reproduces every one of its
steps; what the code says about itself (grader/diagnosis/cues.py) breaks ties that numbers cannot.
"""

from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import NamedTuple

from runner.assembly import is_stub
from runner.precision import agrees

from ..figures import brief, tuple_text
from ..ops import OPS, Args
from ..present import shown_steps
from ..result import Culprit
from ..scaffold import scope
from . import explain
from .advice import advice, upstream_missing
from .crashes import crash
from .cues import builtin_names, code_cues
from .explain import grad_of
from .reading import reading

MAX_MISTAKES = 2  # classic mistakes combined in one Variant
SIGN = "opposite_sign"  # any op's rule with its sign flipped
# what the steps showed beyond numbers, most telling first
STRUCTURAL_FIRST = (
    "calls_closure",
    "data_changed",
    "wrong_node",
    "not_a_tuple",
    "wrong_length",
    "not_a_number",
    "not_finite",
)


@dataclass(frozen=True)
class Variant:
    """One way of writing an op's backward step: its rule, or the rule bent."""

    local: str = ""  # "": the op's rule; a key of op.wrong; SIGN; "grad_for_data"; "nothing"
    upstream: bool = True  # multiplied by out.grad
    accumulate: bool = True  # `+=` rather than `=`
    both: bool = True  # also updates other.grad
    twice: bool = False  # adds its contribution twice

    @property
    def diagnoses(self):
        """Its diagnoses (keys of grader/diagnosis/explain.py's words), simplest first; none
        for its rule."""
        found = [self.local] if self.local else []
        found += [] if self.accumulate else ["assign"]
        found += [] if self.upstream else ["no_upstream"]
        found += [] if self.both else ["one_operand"]
        return found + (["twice"] if self.twice else [])


@cache
def variants(op_name, design_has_closures=True):
    """Every Variant of an op made of at most MAX_MISTAKES mistakes, simplest first."""
    op = OPS[op_name]
    if not design_has_closures:
        return [Variant(), *(Variant(local) for local in [*op.wrong, SIGN])]
    locals_ = ["", "nothing", *op.wrong, SIGN, "grad_for_data"]
    operands = (True, False) if op.arity == 2 else (True,)
    flags = (True, False)
    found = []
    for local, upstream, accumulate, both, twice in product(
        locals_, flags, flags, operands, flags[::-1]
    ):
        variant = Variant(local, upstream, accumulate, both, twice)
        if variant.twice and not variant.accumulate:
            continue  # `=` twice is `=` once
        if local == "nothing" and variant.diagnoses != ["nothing"]:
            continue
        if len(variant.diagnoses) <= MAX_MISTAKES:
            found.append(variant)
    return sorted(found, key=lambda v: len(v.diagnoses))


def simulate(variant, node, operands, start):
    """The operands' grads after `node`'s closure, written as `variant`, ran from `start`."""
    op, g = node.op, start[node.index]
    grads = {j: start[j] for j in operands}
    if variant.local == "nothing":
        return grads
    rule = rule_of(op, variant.local)
    count = op.arity if variant.both else 1
    for i in range(count):
        if variant.local == "grad_for_data":
            second = grads[operands[1]] if op.arity == 2 else None
            args = Args(grads[operands[0]], second, g, node.exponent)
        else:
            args = node.args()
        share = rule(args)[i] * (g if variant.upstream else 1.0)
        for _ in range(2 if variant.twice else 1):
            grads[operands[i]] = grads[operands[i]] + share if variant.accumulate else share
    return grads


def rule_of(op, local):
    """The local rule a Variant's `local` computes: the op's own, bent by it."""
    if local in op.wrong:
        return op.wrong[local].rule
    if local == SIGN:
        return lambda args: tuple(-value for value in op.local(args))
    return op.local


class At(NamedTuple):
    """A step of the learner's run: its check, and its index among that check's steps."""

    check: int
    step: int


@dataclass
class Finding:
    """What the steps of one op's code showed."""

    op: str
    closures: bool = True  # the design: closures, or tuples of local gradients
    common: set | None = None  # the diagnoses (tuples) of the Variants that fit every step so far
    evidence: At | None = None  # the first step its rule does not fit
    cues: set = field(default_factory=set)
    cue_step: At | None = None  # the first step with a structural cue
    twice: list = field(default_factory=list)  # (check, node) that a nested call pushed into

    def fit(self, where, candidates):
        diagnoses = {tuple(v.diagnoses) for v in candidates}
        self.common = diagnoses if self.common is None else self.common & diagnoses
        if () not in diagnoses and self.evidence is None:
            self.evidence = where

    def cue(self, key, where):
        self.cues.add(key)
        self.cue_step = self.cue_step or where


@dataclass(frozen=True)
class Diagnosis:
    diagnoses: list  # every diagnosis key, each once
    culprits: list  # result.Culprit, in the exercise's order of ops
    said: str = ""  # for a run that raised: which names exist where it raised


def diagnose(seen_checks, exercise, bodies, told=frozenset()):
    """The Diagnosis of an exercise's observed checks (`seen_checks`: observation.SeenCheck each);
    `told`, the ops whose rule its sentences may say (grader/disclosure.py)."""
    closures = exercise.design == "closures"
    findings = {op: Finding(op, closures) for op in exercise.ops}
    for c, check in enumerate(seen_checks):
        for s, step in enumerate(check.steps):
            node = check.nodes[step.node]
            finding = findings.get(node.op.name) if node.op else None
            if finding is None or step.depth > 0:
                continue
            where = At(c, s)
            if closures:
                _closure_step(finding, check, s, step, node, where)
            else:
                _tuple_step(finding, step, node, where)
    culprits, diagnoses = [], []
    for op, finding in findings.items():
        found = _decide(finding, bodies[op], exercise.stubs[op])
        diagnoses += [key for key in found if key not in diagnoses]
        if is_stub(bodies[op], exercise.stubs[op]):
            continue  # the summary names the ops still at their starter code
        said = _culprit_sentence(finding, found, seen_checks, exercise, op in told)
        if found or said[0]:
            culprits.append(_culprit(op, found, said, seen_checks, bodies[op], exercise))
    return Diagnosis(diagnoses, culprits)


def _culprit(op, found, told, seen_checks, body, exercise):
    """The Culprit of an op, its sentence `told` at the step `(sentence, where)`, with what its
    code says in its own words: Python's reading of a line, advice naming its names (each said
    instead of the diagnoses it covers)."""
    sentence, where = told
    read, covers = reading(body, found)
    advised, more = advice(body, [key for key in found if key not in covers], op, exercise.design)
    check, step = _shown(seen_checks, where)
    return Culprit(
        op=op,
        label=OPS[op].label,
        diagnoses=tuple(found),
        sentence=sentence,
        check=check,
        step=step,
        reading=" ".join(text for text in (read, advised) if text),
        covers=(*covers, *more),
    )


def _shown(seen_checks, where):
    """`(check, step)`: where the step-through shows the step at `where` (or None, None)."""
    if where is None:
        return None, None
    shown = shown_steps(seen_checks[where.check])
    return where.check, (shown.index(where.step) if where.step in shown else None)


def _closure_step(finding, check, s, step, node, where):
    operands = [operand.index for operand in node.operands]
    start = step.start
    after = list(start)
    for write in step.grads:
        after[write.node] = write.after
    if step.data:
        finding.cue("data_changed", where)
    if any(write.node not in operands for write in step.grads):
        finding.cue("wrong_node", where)
    nested = _nested(check.steps, s)
    if nested:
        pushed = [(where.check, write.node) for other in nested for write in other.grads]
        if pushed and not finding.twice:
            finding.cue_step = None  # the step that shows it best
        finding.cue("calls_closure", where)
        finding.twice += pushed
    numbers = [start[j] for j in [*operands, node.index]] + [after[j] for j in operands]
    if not all(isinstance(value, float) for value in numbers):
        read = [start[j] for j in [*operands, node.index]]
        if all(isinstance(value, float) for value in read) and not all(
            isinstance(after[j], float) for j in operands
        ):
            finding.cue("not_a_number", where)  # its own: not a Value passed down to it
        return
    if not all(agrees(after[j], after[j]) for j in operands):
        finding.cue("not_finite", where)
        return
    fits = []
    for variant in variants(node.op.name):
        try:
            simulated = simulate(variant, node, operands, start)
        except (ArithmeticError, ValueError, TypeError):
            continue
        if all(agrees(after[j], simulated[j]) for j in operands):
            fits.append(variant)
    finding.fit(where, fits)


def _nested(steps, s):
    """The steps that step `s` started itself: its direct callees."""
    depth, found = steps[s].depth, []
    for later in steps[s + 1 :]:
        if later.depth <= depth:
            break
        if later.depth == depth + 1:
            found.append(later)
    return found


def _tuple_step(finding, step, node, where):
    local = step.local_grads
    if not isinstance(local, list):
        finding.cue("not_a_tuple", where)
        return
    if len(local) != node.op.arity:
        finding.cue("wrong_length", where)
        return
    if not all(isinstance(value, float) for value in local):
        finding.cue("not_a_number", where)
        return
    fits = []
    for variant in variants(node.op.name, False):
        rule = rule_of(node.op, variant.local)
        try:
            if all(agrees(got, want) for got, want in zip(local, rule(node.args()), strict=True)):
                fits.append(variant)
        except (ArithmeticError, ValueError, TypeError):
            continue
    right = node.op.local(node.args())
    if node.op.arity == 2 and all(agrees(a, b) for a, b in zip(local[::-1], right, strict=True)):
        fits.append(Variant("tuple_order"))
    finding.fit(where, fits)


def _decide(finding, body, stub):
    """The diagnoses of one op's code."""
    if is_stub(body, stub):
        return ["nothing"]
    cues = code_cues(body)
    structural = next((key for key in STRUCTURAL_FIRST if key in finding.cues), None)
    if structural == "calls_closure" and "calls_backward" in cues:
        structural = "calls_backward"
    if structural in ("calls_closure", "calls_backward"):
        # the extra calls hide what the numbers would say of `=`: the code says it
        return [structural, *(["assign"] if "assign" in cues else [])]
    if structural:
        return [structural]
    if finding.common is None:
        return []  # its code never ran
    best = _simplest(finding, upstream_missing(body))
    if best in (None, ("nothing",), ("grad_for_data",)):
        for key in ("nested_def", "local_only", "grad_for_data", "calls_backward"):
            if key in cues:
                return [key]
    return list(best or ())


def _simplest(finding, missing=False):
    """The simplest Variant's diagnoses among those that fit every step, or None; between
    equally simple ones, the code breaks the tie: `missing`, whether no `out.grad` reaches its
    grads (so a share at out.grad = 0.5 is `out.grad` left out, not a share added twice)."""
    ranks = {}
    for rank, variant in enumerate(variants(finding.op, finding.closures)):
        ranks.setdefault(tuple(variant.diagnoses), rank)
    ranks.setdefault(("tuple_order",), len(ranks))
    fitting = [found for found in finding.common if found in ranks]

    def key(found):
        return len(found), ("no_upstream" in found) != missing, ranks[found]

    return min(fitting, key=key) if fitting else None


def _culprit_sentence(finding, diagnoses, seen_checks, exercise, told):
    """What the op's code did, told from the step that shows it: `(sentence, At)`. Each claim
    (twice, set, left, changed) is made only where that step's numbers show it; the op's rule
    only when it is `told`, else a way to measure it at that step's inputs."""
    closures = exercise.design == "closures"
    label = f"`{OPS[finding.op].label}`"
    if diagnoses == ["calls_closure"]:
        twice = _run_twice(finding, seen_checks)
        if twice:
            whose = "their contributions" if len(twice) > 1 else "its contribution"
            return (
                f"Your {label} closure runs another node's closure, which `backward()` runs too, "
                f"so {' and '.join(twice)} received {whose} twice."
            ), finding.cue_step
    where = finding.evidence
    if where is None or diagnoses == ["nothing"]:
        return "", finding.cue_step
    check = seen_checks[where.check]
    step = check.steps[where.step]
    node = check.nodes[step.node]
    at = f"(at {_inputs(node, check)})"
    if not closures:
        given = f"Your {label} local gradients are {tuple_text(step.local_grads)} {at}"
        if told:
            return f"{given}, where {tuple_text(node.op.local(node.args()))} is right.", where
        them = "each slope with its number" if node.op.arity == 2 else "the slope with it"
        return f"{given}. {_measure(node, exercise, check)}: compare {them}.", where
    told_as = f"Your {label} closure {at}"
    return _closure_sentence(finding, diagnoses, check, step, node, told_as, told, exercise), where


def _here(name, named):
    return "" if name == named or not named.isidentifier() else f" ({named} here)"


def _nudged(node, exercise):
    """The nudge tool's names for a step's inputs: the op tab's first check's."""
    names = ["x", "y"][: node.op.arity]
    return list(exercise.checks[0].leaves)[: node.op.arity] if exercise.op_tab else names


def _measure(node, exercise, check):
    """Where the nudge tool measures a step's op: "Nudge x at 2.0 and y at -3.0", with the
    op tab's own input names (and its exponent), "on the `__mul__` tab" from a graph tab; an
    input the check calls otherwise is named as it is there: "x at 5.0 (c here)"."""
    op, names = node.op, _nudged(node, exercise)
    said = " and ".join(
        f"{name} at {brief(operand.data)}" + _here(name, check.names[operand.index])
        for name, operand in zip(names, node.operands, strict=True)
    )
    if node.exponent is not None:
        said += f" with n = {node.exponent!r}"
    where = "" if exercise.op_tab else f" on the `{op.label}` tab"
    return f"Nudge {said}{where}"


def _run_twice(finding, seen_checks):
    """The grads a nested call pushed into from a closure that `backward()` also ran itself,
    named (`["x.grad", "y.grad"]`)."""
    pushed = []
    for c, j in finding.twice:
        ran = {step.node for step in seen_checks[c].steps if step.depth == 0}
        feeding = [n.index for n in seen_checks[c].nodes if any(o.index == j for o in n.operands)]
        if any(node in ran for node in feeding):
            pushed.append(grad_of(seen_checks[c].names[j]))
    return list(dict.fromkeys(pushed))


def _closure_sentence(finding, diagnoses, check, step, node, said, told, exercise):
    """What a closure did to the first input it got wrong, against what the op's rule gives
    (its rule named when `told`; else where to measure it, when the rule is what is wrong)."""
    operands = [operand.index for operand in node.operands]
    right = simulate(Variant(), node, operands, step.start)
    after = {write.node: write.after for write in step.grads}
    written = {write.node for write in step.writes} | set(after)
    for j in dict.fromkeys(operands):
        got, before, want = after.get(j, step.start[j]), step.start[j], right[j]
        if agrees(got, want):
            continue
        name, uses = grad_of(check.names[j]), operands.count(j)
        zeros = [0.0] * len(step.start)
        zeros[node.index] = step.start[node.index]  # out.grad, as the step read it
        # what `=` leaves: the op's own share (the last one, where the input is used twice)
        alone = agrees(got, simulate(Variant(accumulate=False), node, operands, zeros)[j])
        rule = OPS[finding.op].rule
        if uses > 1:
            rule = f"adding {rule} once for each of its {uses} uses"
        elif before != 0:
            rule = f"adding {rule}"
        where = (
            f"where {rule} gives {brief(want)}" if told else f"where it should become {brief(want)}"
        )
        if "assign" in diagnoses and uses > 1 and alone:
            change = f"set {name} once per use, so the last share ({brief(got)}) replaced the rest"
        elif "assign" in diagnoses and before != 0 and alone:
            change = f"set {name} to its own share, {brief(got)}, dropping the {brief(before)}"
        elif agrees(got, before):
            change = f"gave {name} a share of 0" if j in written else f"left {name} at {brief(got)}"
        else:
            change = f"changed {name} from {brief(before)} to {brief(got)}"
        measured = (
            "" if told else _compare(finding, diagnoses, check, step, j, (before, got), exercise)
        )
        return f"{said} {change}, {where}.{measured}"
    return ""


def _compare(finding, diagnoses, check, step, j, change, exercise):
    """A nudge to hold the closure's slope against, when its rule is what went wrong: not for
    the chain rule's bookkeeping (`=`, `out.grad`, an input forgotten, twice). The number it
    names is what the nudge tool shows (the code's share at out.grad = 1), only where the
    step's numbers say it: a classic wrong rule scales with out.grad; code nothing explains
    may not, so its share is named only when the step itself ran at out.grad = 1."""
    wrong = OPS[finding.op].wrong
    if any(key not in wrong and key != SIGN for key in diagnoses):
        return ""
    node = check.nodes[step.node]
    g, (before, got) = step.start[node.index], change
    operands = [operand.index for operand in node.operands]
    if not all(isinstance(v, float) for v in (g, before, got)) or g == 0:
        return ""
    name = _nudged(node, exercise)[operands.index(j)]
    whose = f"{name}'s slope" if node.op.arity == 2 else "the slope"
    measure = f" {_measure(node, exercise, check)}: compare {whose} with"
    if diagnoses or (g == 1 and before == 0 and operands.count(j) == 1):
        slope = (got - before) / g / operands.count(j)
        return f"{measure} the {brief(slope)} your code gave per unit of out.grad."
    return f"{measure} the {name}.grad your code gives there (Nudge runs it at out.grad = 1)."


def _inputs(node, check):
    """The numbers a step read: `x = 2.0, y = -3.0` by their names in the check."""
    named = [
        o for o in node.operands if o.op is not None or check.names[o.index] in check.check.leaves
    ]
    parts = [f"{check.names[operand.index]} = {brief(operand.data)}" for operand in named]
    if node.exponent is not None:
        parts.append(f"n = {node.exponent!r}")
    return ", ".join(dict.fromkeys(parts))


def diagnose_error(error, exercise, bodies):
    """The Diagnosis of a run that raised (`error`: result.Error): what the numbers say
    matters less than why the code stopped."""
    op = error.slot
    if op not in exercise.ops:
        return Diagnosis([], [])
    label, names = OPS[op].label, scope(exercise.design, op)
    if error.type == "NameError" and error.name:
        said = explain.not_in_scope_sentence(error.name, label, names, exercise.design)
        return Diagnosis(["not_in_scope"], [], said)
    known = crash(error, exercise, bodies[op])
    if known:
        key, said = known
        return Diagnosis([key], [], said)
    found = [error.builtin] if error.builtin else []
    if not found and error.type in ("TypeError", "AttributeError"):
        found = builtin_names(error.source_line, names)
    if found:
        return Diagnosis(["builtin_name"], [], explain.builtin_sentence(found[0], label, names))
    if error.type == "RecursionError" and "calls_backward" in code_cues(bodies[op]):
        return Diagnosis(["calls_backward"], [])
    return Diagnosis([], [])
