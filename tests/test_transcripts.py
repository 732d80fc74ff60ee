"""Every sentence the grader shows for each known answer is the one its exercise's golden
transcript holds (grader/cli/transcript.py): a change of words fails here until the transcripts are
written again (`python -m grader --write-transcripts`) and the diff is reviewed."""

import re

import pytest

from grader import grade
from grader.cli import transcript
from grader.cli.report import golden
from grader.exercises import EXERCISES_DIR, catalog, expectations

EXERCISES = catalog()


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=list(EXERCISES))
def test_every_known_answer_reads_as_its_golden_transcript(exercise):
    """On both sides of the formula rung: below it, and with the rule told."""
    said = golden(exercise)
    assert said, f"{transcript.path(exercise, EXERCISES_DIR)} is missing"
    sections = [
        (section, told, bodies)
        for e, name, bodies, should_pass, _ in expectations(EXERCISES)
        if e is exercise
        for section, told in transcript.sides(e, name, should_pass)
    ]
    assert sorted(said) == sorted(section for section, *_ in sections), "answers added or removed"
    for section, told, bodies in sections:
        result = grade(exercise.id, bodies, EXERCISES, told)
        assert transcript.transcript(result) == said[section], section


def test_a_transcript_holds_every_sentence_a_failing_result_shows():
    result = grade("mul", {"mul": "self.grad = other.data * out.grad\n"}, EXERCISES)
    said = transcript.transcript(result)
    assert said.startswith("verdict: fail\nsummary: ")
    assert f"diagnosis: {result['diagnosis']}" in said
    culprit = result["culprits"][0]
    assert f"culprit {culprit['label']}: {culprit['sentence']}" in said
    rows = [row for check in result["checks"] for row in check["rows"] if not row["passed"]]
    assert rows and all(row["why"] in said for row in rows)


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", text) if s]


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=list(EXERCISES))
def test_every_sentence_is_at_most_forty_words(exercise):
    for name, said in golden(exercise).items():
        for line in said.splitlines():
            for sentence in sentences(line.partition(": ")[2]):
                assert len(sentence.split()) <= 40, (name, sentence)


CLAIMS = {  # what a culprit sentence may say a closure did, and what the step must show
    "set": re.compile(r"set (\S+) to its own share, (\S+), dropping the (\S+?),"),
    "per use": re.compile(r"set (\S+) once per use, so the last share \((\S+)\)"),
    "changed": re.compile(r"changed (\S+) from (\S+) to (\S+?),"),
    "left": re.compile(r"left (\S+) at (\S+?),"),
    "zero": re.compile(r"gave (\S+) a share of 0"),
    "twice": re.compile(r"so (.+) received (?:its contribution|their contributions) twice"),
}


def writes_to(check, step, grad):
    """The changes a shown step made to the grad a sentence names (`x.grad`, `(n * 2).grad`)."""
    name = grad.removesuffix(".grad").removeprefix("(").removesuffix(")")
    node = next(node["id"] for node in check["nodes"] if node["name"] == name)
    return [c for c in check["steps"][step]["changes"] if c["node"] == node and c["what"] == "grad"]


def close(text, number):
    return abs(float(text) - float(number)) < 1e-6


def test_each_claim_a_culprit_makes_is_what_its_step_shows():
    """Re-derives each claim of every known answer's culprits from the step it points at."""
    claims = set()
    for exercise, name, bodies, *_ in expectations(EXERCISES):
        result = grade(exercise.id, bodies, EXERCISES)
        for culprit in result["culprits"]:
            for kind, pattern in CLAIMS.items():
                found = pattern.search(culprit["sentence"])
                if found:
                    check = result["checks"][culprit["check"]]
                    assert holds(kind, found.groups(), check, culprit["step"]), (name, culprit)
                    claims.add(kind)
    assert claims >= {"set", "per use", "changed", "left", "twice"}, "known answers make each claim"


def holds(kind, said, check, step):
    if kind == "twice":  # a closure run by another closure (depth 1) changed each grad named
        nested = [s for s in check["steps"] if s["depth"] > 0]
        named = said[0].split(" and ")
        nodes = {n["id"] for n in check["nodes"] if f"{n['name']}.grad" in named}
        return len(nodes) == len(named) and all(
            any(c["node"] == n for s in nested for c in s["changes"]) for n in nodes
        )
    changes = writes_to(check, step, said[0])
    if kind == "left":
        return not changes
    if kind == "zero":
        return changes and all(c["before_text"] == c["after_text"] for c in changes)
    first, last = changes[0], changes[-1]
    if kind == "set":
        return close(first["before_text"], said[2]) and close(last["after_text"], said[1])
    if kind == "per use":
        return len(changes) > 1 and close(last["after_text"], said[1])
    return close(first["before_text"], said[1]) and close(last["after_text"], said[2])


def test_no_wrong_answer_is_left_with_python_s_words_alone():
    """Every known wrong answer, crash or not, gets a diagnosis in the learner's terms; one that
    raised names the learner's line in it."""
    for exercise, name, bodies, should_pass, _ in expectations(EXERCISES):
        if should_pass:
            continue
        result = grade(exercise.id, bodies, EXERCISES)
        assert result["diagnosis"], (exercise.id, name)
        error = result["error"]
        if error and error["line"] and error["slot"]:
            # the line it raised on, or the line it names as the cause (a block's opening)
            named = re.search(
                rf"Line (\d+) of your `{re.escape(error['label'])}` code", result["diagnosis"]
            )
            lines = len(bodies[error["slot"]].strip().splitlines())
            assert (named and 1 <= int(named.group(1)) <= lines) or (
                result["diagnoses"] in (["not_in_scope"], ["builtin_name"], ["calls_backward"])
            ), (exercise.id, name, result["diagnosis"])


def test_the_wrong_answers_cover_what_learners_write():
    """68 known wrong answers before issue 24, and the 60 more it asked for at least."""
    assert sum(len(exercise.known_wrong) for exercise in EXERCISES.values()) >= 128
