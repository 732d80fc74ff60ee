"""Learners work each derivative out: every tab asks first and climbs three rungs of hints (a
question with the check's numbers, a nudge towards the rule, the formula), and neither a hint,
nor the prompt, nor the starter code hands over the solution's code, in backticks or in plain
text (tests/test_disclosure.py keeps the rule itself out of every rung below the last)."""

import re

import pytest

from grader.exercises import catalog

EXERCISES = catalog()


def squashed(code):
    return re.sub(r"\s+", "", code)


def answers(exercise, ops=None):
    """The code a hint must not give: each line of the reference, what each adds (the right
    side of `+=`) and its local derivative (without `* out.grad`), as the learner would type
    them; a derivative that is a bare number (`1.0`) says nothing of the code."""
    found = set()
    for op, body in exercise.solutions.items():
        if ops is not None and op not in ops:
            continue
        for line in body.splitlines():
            line = squashed(line)
            if not line or line.startswith(("#", "def")):  # a checker's signatures are given
                continue
            added = line.partition("+=")[2] or line
            local = added.removesuffix("*out.grad")
            found |= {line, added, local, local.removeprefix("(").removesuffix(")")}
    return {answer for answer in found if re.search("[A-Za-z]", answer)}


def code_spans(text):
    return [squashed(span) for span in re.findall(r"`([^`]+)`", text)]


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=list(EXERCISES))
def test_every_tab_has_a_ladder_of_at_least_three_hints(exercise):
    assert len(exercise.hints) >= 3


# an engine tab's starting code is its solution but for a line: tests/test_engine.py
@pytest.mark.parametrize(
    "exercise", [e for e in EXERCISES.values() if e.kind != "engine"], ids=lambda e: e.id
)
def test_no_hint_prompt_or_stub_hands_over_the_solution_s_code(exercise):
    given = answers(exercise)
    lines = {answer for answer in given if ".grad" in answer}  # a whole line of the reference
    for text in (*exercise.hints, exercise.prompt):
        for span in code_spans(text):
            assert not any(answer in span for answer in given), (exercise.id, span)
        # in plain text too; the formula rung states the rule, so there only a whole line counts
        told = given if text is not exercise.hints[-1] else lines
        assert not any(answer in squashed(text) for answer in told), (exercise.id, text)
    for op, stub in exercise.stubs.items():
        assert "d(out)/d" not in stub
        mine = answers(exercise, [op])
        assert not any(answer in squashed(stub) for answer in mine), (exercise.id, stub)


def test_the_rule_catches_the_solution_in_plain_text_too():
    hint = "Write self.grad += other.data * out.grad, then the same for other."
    given = answers(EXERCISES["mul"])
    assert not any(answer in span for span in code_spans(hint) for answer in given)
    assert any(answer in squashed(hint) for answer in given)


def test_the_rule_holds_the_hints_of_before_to_account():
    """The hints this course used to give would fail it: they named the solution's code."""
    for name, old in (
        ("mul", "`self.grad` gets `other.data * out.grad`"),
        ("tanh", "The local derivative is `1 - t**2`, the same as `1 - out.data**2`."),
        ("local-mul", "`(other.data, self.data)`"),
    ):
        given = answers(EXERCISES[name])
        assert any(answer in span for span in code_spans(old) for answer in given), name
