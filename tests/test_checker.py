"""The checker exercise kind (grader/checker.py, runner/checker.py): the learner's
numerical_grad, relative_error and check, run by the runner and judged to seven decimals, each
classic wrong checker failing with its own words; and the plot's measurements."""

import json

import pytest

from grader import grade
from grader.checker import CALLS, expected
from grader.exercises import ExerciseError, load_catalog
from grader.runner_data import runner_data
from runner import nudge
from runner.checker import PLOT_OPS, observe_checker

EXERCISES = load_catalog()
CHECKERS = [e for e in EXERCISES.values() if e.kind == "checker"]
EXERCISE = CHECKERS[0]
SOLUTION = EXERCISE.solutions["checker"]
WRONG = {answer.name: answer for answer in EXERCISE.known_wrong}


def test_the_course_has_a_checker_and_its_reference_passes():
    result = grade(EXERCISE.id, EXERCISE.solutions, EXERCISES)
    assert result["verdict"] == "pass", result["summary"]
    assert len(result["checks"]) == len(EXERCISE.checks)
    assert {check.call for check in EXERCISE.checks} == set(CALLS)


@pytest.mark.parametrize(
    ("name", "key", "words"),
    [
        ("forward difference", "forward", "halves too"),
        ("absolute difference, not relative", "absolute", "at every scale"),
        ("h too small: round-off", "h_too_small", "h = 1e-12"),
        ("h too large: truncation", "h_too_large", "That h is too large"),
    ],
)
def test_each_wrong_checker_fails_with_its_own_words(name, key, words):
    result = grade(EXERCISE.id, WRONG[name].bodies, EXERCISES)
    assert result["verdict"] == "fail"
    assert result["diagnoses"] == [key]
    assert words in result["diagnosis"]
    others = {"forward", "absolute", "h_too_small", "h_too_large"} - {key}
    told = grade(EXERCISE.id, WRONG[name].bodies, EXERCISES, told=["checker"])["diagnosis"]
    assert told != result["diagnosis"] and not others & set(result["diagnoses"])


def test_a_check_that_returns_zero_does_not_pass():
    """One check gives a wrong gradient on purpose: `return 0.0` cannot pass `check`."""
    body = SOLUTION.replace("return relative_error(numerical_grad(f, x, 1e-5), grad)", "return 0.0")
    result = grade(EXERCISE.id, {"checker": body}, EXERCISES)
    assert result["verdict"] == "fail"
    failing = [c["built"] for c in result["checks"] if not c["passed"]]
    assert failing == ["check(f, x, df)"]


def test_a_missing_function_is_named_and_the_stub_is_the_starter_code():
    body = SOLUTION.split("def relative_error")[0]
    result = grade(EXERCISE.id, {"checker": body}, EXERCISES)
    assert result["verdict"] == "error" and "`relative_error`" in result["summary"]
    stub = grade(EXERCISE.id, EXERCISE.stubs, EXERCISES)
    assert stub["stubs"] == ["checker"] and stub["diagnoses"] == ["nothing"]


def test_the_learner_s_error_is_at_their_line():
    body = SOLUTION.replace("abs(a - b)", "abs(a - b) / 0")
    result = grade(EXERCISE.id, {"checker": body}, EXERCISES)
    assert result["verdict"] == "error"
    assert result["error"]["line"] == 6 and result["error"]["slot"] == "checker"


def test_check_reports_the_h_it_measured_with():
    data = runner_data(EXERCISES)["exercises"][EXERCISE.id]
    body = SOLUTION.replace("1e-5), grad)", "1e-7), grad)")
    seen = observe_checker(data, {"checker": body})
    calls = [check["call"] for check in data["checks"]]
    assert all(seen["checks"][i]["hs"] == [1e-7] for i, c in enumerate(calls) if c == "check")


def test_a_forged_report_never_passes():
    """The judge reads the runner's report as untrusted data."""
    from grader.judge import judge

    forged = {"checks": [{"got": expected(c), "hs": "x"} for c in EXERCISE.checks], "error": None}
    forged |= {"stdout": "", "stdout_truncated": False, "stdout_lines": 0}
    assert judge(EXERCISE.id, {}, forged, EXERCISES).verdict == "error"
    right = {**forged, "checks": [{"got": expected(c), "hs": []} for c in EXERCISE.checks][:-1]}
    assert judge(EXERCISE.id, {}, right, EXERCISES).verdict == "error"


def test_an_unknown_call_stops_the_build(tmp_path):
    folder = tmp_path / "bad"
    (folder / ".meta").mkdir(parents=True)
    (folder / "stub.py").write_text("pass\n")
    (folder / ".meta" / "solution.py").write_text(SOLUTION)
    (folder / "exercise.toml").write_text(
        'kind = "checker"\nlabel = "c"\nprompt = "p"\n[[checks]]\ncall = "numerical_gard"\n'
    )
    with pytest.raises(ExerciseError, match="numerical_grad"):
        load_catalog(tmp_path)


def test_the_plot_is_a_u_for_the_reference_closures_and_relu_s_kink_is_one_half(runner_zip_data):
    found = json.loads(nudge.nudge_json(EXERCISE.id, "{}", "{}", 0))
    assert found["error"] is None and [c["op"] for c in found["curves"]] == [o for o, _ in PLOT_OPS]
    hs = found["hs"]
    assert hs[0] == pytest.approx(1e-1) and hs[-1] == pytest.approx(1e-12)
    for curve in found["curves"]:
        central = curve["central"]
        lowest = central.index(min(central))
        assert 1e-8 < hs[lowest] < 1e-3, curve["op"]
        assert central[0] > 100 * central[lowest] and central[-1] > 100 * central[lowest]
        assert min(curve["forward"]) > min(central)  # the forward difference's U sits higher
    kink = found["kink"]
    assert kink["slope"] == pytest.approx(0.5) and kink["grad"] == 0.0
    assert (kink["left"], kink["right"]) == (0.0, pytest.approx(1.0))


def test_the_plot_measures_the_learner_s_own_closure(runner_zip_data):
    wrong = {"tanh": "self.grad += out.grad"}
    found = json.loads(nudge.nudge_json(EXERCISE.id, json.dumps(wrong), "{}", 0))
    tanh = next(c for c in found["curves"] if c["op"] == "tanh")
    assert min(tanh["central"]) > 0.1  # no h makes a wrong closure agree


def test_a_closure_that_raises_is_said_by_its_curve_and_the_others_are_drawn(runner_zip_data):
    raising = {"tanh": "raise ValueError('nope')", "relu": "self.grad += 1 / 0"}
    found = json.loads(nudge.nudge_json(EXERCISE.id, json.dumps(raising), "{}", 0))
    curves = {c["op"]: c for c in found["curves"]}
    assert curves["tanh"]["raised"] == "ValueError: nope" and "central" not in curves["tanh"]
    assert "raised" not in curves["exp"] and len(curves["exp"]["central"]) == len(found["hs"])
    assert found["kink"] == {"raised": "ZeroDivisionError: division by zero"}


def test_a_check_that_returns_nothing_fails_and_says_so():
    body = SOLUTION.replace("1e-5), grad)", "1e-3), grad)")
    assert body != SOLUTION
    i = body.index("def check(")
    body = body[:i] + body[i:].replace("return ", "", 1)  # computes it, and forgets to return it
    result = grade(EXERCISE.id, {"checker": body}, EXERCISES)
    assert result["verdict"] == "fail"
    assert any("NoneType" in row["got_text"] for c in result["checks"] for row in c["rows"])
