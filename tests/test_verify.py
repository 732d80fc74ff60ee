"""`python -m grader verify` (grader/cli/verify.py): a certificate's code run sealed, as a regrade
runs it, each verdict held to what the file claims: an honest file, a claim its code does not
earn, two tabs' code swapped, a file of another version of the course and of another course.
Its words, which the verify page shows too (widget/src/record/verify.js reads the same
grader/verify_words.json), are held to tests/verify_transcript.txt here and, for the page, by
tests/widget/record.test.mjs. `python tests/test_verify.py` rewrites the transcript."""

import json
from pathlib import Path

import pytest

from grader import cli
from grader.cli import verify
from grader.cli.sealed import Harness, SealedRunner
from grader.exercises import catalog
from grader.handin import course_id, read_handin

HERE = Path(__file__).parent
CASES = json.loads((HERE / "verify_cases.json").read_text(encoding="utf-8"))
GOLDEN = HERE / "verify_transcript.txt"
EXERCISES = catalog()
COURSE = course_id(EXERCISES)
VERSIONS = {exercise.id: exercise.version for exercise in EXERCISES.values()}
WRONG_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
CODE = {"add": EXERCISES["add"].solutions["add"], "mul": WRONG_MUL, "local_grads/add": "(1, 1)\n"}
CLAIMS = {"add": {"verdict": "pass"}, "mul": {"verdict": "fail"}, "local-add": {"verdict": "pass"}}


def transcript():
    return "".join(f"## {name}\n{verify.text(found)}\n\n" for name, found in CASES.items())


def test_the_words_are_the_golden_transcript_s_and_every_sentence_is_in_it():
    written = GOLDEN.read_text(encoding="utf-8")
    assert transcript() == written, "the words changed: review `python tests/test_verify.py`"
    sentences = [verify.WORDS["course"][kind] for kind in ("same", "version", "other")]
    sentences += list(verify.WORDS["earned"].values())
    sentences += [verify.WORDS[key] for key in ("another_version", "claims_more", "none")]
    sentences += [verify.WORDS[key] for key in ("over_none", "over_one")]
    for sentence in sentences:
        assert sentence in written, sentence


def certificate(code=CODE, tabs=CLAIMS, course=COURSE, versions=VERSIONS, learner="Ada Lovelace"):
    found = {"format": "micrograd-work", "version": 1, "course": course, "learner": learner}
    found |= {"saved": "2026-11-28T10:00:00.000Z", "exercises": versions, "site": "https://x/"}
    return read_handin(json.dumps(found | {"code": code, "tabs": tabs}).encode())


@pytest.fixture(scope="module")
def runner():
    harness = Harness(EXERCISES, time_limit=5)
    runner = SealedRunner(harness)
    yield runner
    runner.close()
    harness.close()


def verdicts(found):
    return {tab["id"]: tab["verdict"] for tab in found["tabs"]}


def over(found):
    return [tab["id"] for tab in found["tabs"] if verify.claims_more(tab)]


def test_an_honest_certificate_earns_every_claim(runner):
    found = verify.check(certificate(), EXERCISES, runner, COURSE)
    assert found["course"] == "same" and over(found) == []
    # the op tabs' code also runs the graph tabs that use it, as a regrade grades them
    assert verdicts(found) == {
        "add": "pass",
        "mul": "fail",
        "diamond": "fail",
        "micrograd": "fail",
        "local-add": "pass",
        "local-graphs": "fail",
    }
    assert "Every pass the file claims, its code earns." in verify.text(found)


def test_a_claim_and_swapped_code_get_what_the_code_earns(runner):
    claims = CLAIMS | {"mul": {"verdict": "pass"}, "tanh": {"verdict": "pass"}}
    code = CODE | {"add": CODE["mul"], "mul": CODE["add"]}
    found = verify.check(certificate(code, claims), EXERCISES, runner, COURSE)
    assert verdicts(found)["add"] == verdicts(found)["mul"] == verdicts(found)["tanh"] == "fail"
    assert over(found) == ["add", "mul", "tanh"]  # tanh: claimed, with no code at all
    assert "The file claims passes for 3 exercises" in verify.text(found)


def test_another_version_and_another_course_say_so(runner):
    changed = VERSIONS | {"mul": "0" * 12}
    found = verify.check(certificate(versions=changed, course="0" * 12), EXERCISES, runner, COURSE)
    assert found["course"] == "version"
    assert [tab["id"] for tab in found["tabs"] if tab["another"]] == ["mul"]
    assert verdicts(found)["add"] == "pass"
    other = certificate(course="other", versions={"square": "1"})
    found = verify.check(other, EXERCISES, runner, COURSE)
    assert found["course"] == "other" and verdicts(found)["add"] == "pass"
    assert verify.WORDS["course"]["other"] in verify.text(found)


def test_the_command_prints_the_check_and_says_what_it_cannot_read(tmp_path, capsys):
    path = tmp_path / "certificate.json"
    path.write_text(json.dumps({"format": "micrograd-work", "version": 1, "code": {}}))
    assert cli.main(["verify", str(path)]) == 0
    assert verify.WORDS["none"] in capsys.readouterr().out
    path.write_text("not JSON")
    with pytest.raises(SystemExit, match="cannot be verified: not JSON"):
        cli.main(["verify", str(path)])


if __name__ == "__main__":
    GOLDEN.write_text(transcript(), encoding="utf-8")
