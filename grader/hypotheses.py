"""Candidate explanations for wrong gradients: the classic mistakes, simplest first."""

from itertools import product

from .answer_key import WRONG_LOCAL, Mistake

BINARY = {"add", "mul"}


def _variants(slot, most):
    """Every Mistake of `slot` made of at most `most` classic errors."""
    locals_ = ["", "nothing", *WRONG_LOCAL[slot]]
    operands = (True, False) if slot in BINARY else (True,)
    flags = (True, False)
    for local, upstream, accumulate, both in product(locals_, flags, flags, operands):
        mistake = Mistake(slot, local, upstream, accumulate, both)
        if local == "nothing" and mistake.keys != ["nothing"]:
            continue
        if 0 < len(mistake.keys) <= most:
            yield mistake


def hypotheses(slots, stubs):
    """Lists of Mistakes that might explain the learner's numbers, simplest first.

    Stubs are known to do nothing. With one slot, up to two errors combine; with several,
    one error in one slot, or the same structural error in every slot written.
    """
    base = [Mistake(slot, "nothing") for slot in stubs]
    written = [slot for slot in slots if slot not in stubs]
    candidates = [base] if base else []
    most = 2 if len(written) == 1 else 1
    candidates += [base + [m] for slot in written for m in _variants(slot, most)]
    if len(written) > 1:
        candidates += [
            base + [Mistake(slot, accumulate=False) for slot in written],
            base + [Mistake(slot, upstream=False) for slot in written],
        ]
    return sorted(candidates, key=lambda found: sum(len(m.keys) for m in found))


def explain(keys_of):
    """The explanation keys of a hypothesis, each once, in order."""
    return list(dict.fromkeys(key for mistake in keys_of for key in mistake.keys))

