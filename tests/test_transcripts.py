"""Every sentence the grader shows for each known answer is the one its exercise's golden
transcript holds (grader/transcript.py): a change of words fails here until the transcripts are
written again (`python -m grader --write-transcripts`) and the diff is reviewed."""

import pytest

from grader import grade, transcript
from grader.exercises import EXERCISES_DIR, catalog
from grader.report import expectations, golden

EXERCISES = catalog()


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=list(EXERCISES))
def test_every_known_answer_reads_as_its_golden_transcript(exercise):
    said = golden(exercise)
    assert said, f"{transcript.path(exercise, EXERCISES_DIR)} is missing"
    answers = [(name, bodies) for e, name, bodies, *_ in expectations(EXERCISES) if e is exercise]
    assert sorted(said) == sorted(name for name, _ in answers), "answers added or removed"
    for name, bodies in answers:
        assert transcript.transcript(grade(exercise.id, bodies, EXERCISES)) == said[name], name


def test_a_transcript_holds_every_sentence_a_failing_result_shows():
    result = grade("mul", {"mul": "self.grad = other.data * out.grad\n"}, EXERCISES)
    said = transcript.transcript(result)
    assert said.startswith("verdict: fail\nsummary: ")
    assert f"diagnosis: {result['diagnosis']}" in said
    culprit = result["culprits"][0]
    assert f"culprit {culprit['label']}: {culprit['sentence']}" in said
    rows = [row for check in result["checks"] for row in check["rows"] if not row["passed"]]
    assert rows and all(row["why"] in said for row in rows)
