"""The grader's behaviour on honest, odd and hostile code."""

import builtins
import json
from dataclasses import FrozenInstanceError, asdict, fields

import pytest

from grader import grade
from grader.exercises import catalog
from grader.figures import seven
from grader.judge import judge, judge_json
from grader.result import Culprit, Row, Verdict
from grader.runner_data import runner_data
from runner.numbers import decode, encode
from runner.observe import observe
from runner.precision import agrees
from runner.sandbox import OUTPUT_LIMIT, CappedOutput

MUL = "self.grad += other.data * out.grad\nother.grad += self.data * out.grad"


def mul(body):
    return grade("mul", {"mul": body})


def rows(result):
    return [row for check in result["checks"] for row in check["rows"]]


def grade_json(exercise, bodies_json):
    """Both halves with JSON between them and out of the judge, as in the browser."""
    observed = observe(exercise, json.loads(bodies_json), runner_data(catalog()))
    return judge_json(exercise, bodies_json, json.dumps(observed))


def test_seven_decimals_is_round_of_the_difference():
    assert agrees(15.0 + 4e-8, 15.0)
    assert not agrees(15.0 + 6e-8, 15.0)
    assert not agrees(15.0 + 1.5e-5, 15.0)  # what pytest.approx would accept
    assert not agrees(float("nan"), 1.0) and not agrees(float("inf"), float("inf"))
    assert seven(-1.5) == "-1.5000000"
    assert seven(float("nan")) == "nan" and seven(float("-inf")) == "-inf"


def test_numbers_cross_as_json_and_what_is_not_a_number_by_its_name():
    def carried(value):
        return decode(json.loads(json.dumps(encode(value), allow_nan=False)))

    for value in (0.5, -2, float("inf"), float("-inf")):
        assert carried(value) == value and type(carried(value)) is float
    assert carried(float("nan")) != carried(float("nan"))
    assert carried(10**400) == float("inf")  # an int too large for a float
    assert [carried(value) for value in ("x", None, True)] == ["str", "NoneType", "bool"]


def test_rows_say_what_was_built_got_and_expected():
    check = mul(MUL)["checks"][1]
    assert check["built"] == "x * y" and check["given"] == "x = -1.5, y = 4.0, out.grad = 0.5"
    row = check["rows"][0]
    assert row["value"] == "x.grad" and row["got_text"] == row["expected_text"] == "2.0000000"
    assert row["passed"] and row["got"] == row["expected"] == 2.0


def test_a_wrong_row_says_what_was_expected_and_the_result_why():
    result = mul("self.grad = other.data * out.grad\nother.grad = self.data * out.grad")
    check = result["checks"][3]
    row = check["rows"][0]
    assert check["built"] == "x * x" and not row["passed"] and row["diagnoses"] == ["assign"]
    assert row["got_text"] == "4.5000000" and row["expected_text"] == "9.0000000"
    assert (
        row["why"]
        == "x.grad should be 9.0: x is used 2 times, and each use's closure adds its share."
    )
    assert result["diagnoses"] == ["assign"] and "`+=`" in result["diagnosis"]
    assert "x.grad once per use" in result["diagnosis"]


def test_a_pass_has_no_diagnosis():
    result = mul(MUL)
    assert (result["diagnoses"], result["diagnosis"], result["culprits"]) == ([], "", [])


def test_no_negative_zero_is_shown():
    row = rows(grade("diamond", {}))[0]  # all stubs: a.grad stays 0.0
    assert row["got_text"] == "0.0000000"


def test_the_same_code_gets_the_same_result_every_run():
    body = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
    assert len({grade_json("diamond", json.dumps({"mul": body})) for _ in range(5)}) == 1


def test_hard_coded_numbers_fail():
    assert mul("self.grad += -3.0\nother.grad += 2.0")["verdict"] == "fail"


def test_a_syntax_error_is_reported_at_the_learners_line():
    result = mul("self.grad += other.data * out.grad\nother.grad += (self.data * out.grad")
    assert result["verdict"] == "error"
    error = result["error"]
    assert (error["type"], error["label"], error["line"]) == ("SyntaxError", "__mul__", 2)
    assert error["source_line"] == "other.grad += (self.data * out.grad"
    assert result["summary"].startswith("SyntaxError on line 2 of your __mul__ code")


def test_an_indentation_error_is_reported_at_the_learners_line():
    error = mul("self.grad += 1\n    other.grad += 2")["error"]
    assert (error["type"], error["line"]) == ("IndentationError", 2)


def test_an_exception_names_the_line_that_raised_it():
    error = mul("x = 1\nself.grad += other.data / 0")["error"]
    assert (error["type"], error["line"]) == ("ZeroDivisionError", 2)
    assert error["source_line"] == "self.grad += other.data / 0"


def test_system_exit_and_keyboard_interrupt_are_errors_not_crashes():
    assert mul("import sys\nsys.exit(0)")["error"]["type"] == "SystemExit"
    assert mul("raise KeyboardInterrupt")["error"]["type"] == "KeyboardInterrupt"


def test_deep_recursion_is_a_clean_error_and_python_survives():
    result = mul("def f(n):\n    return f(n + 1)\nf(0)")
    assert result["error"]["type"] == "RecursionError" and result["error"]["line"] == 2
    assert mul(MUL)["verdict"] == "pass"


def test_printed_output_is_captured_and_capped():
    result = mul("for i in range(100000):\n    print('<b>line</b>', i)\n" + MUL)
    assert result["verdict"] == "pass"
    assert result["stdout_truncated"] and len(result["stdout"]) == OUTPUT_LIMIT
    assert result["stdout"].startswith("<b>line</b> 0\n")
    # the lines it printed, not the lines kept (the page says both: results.js)
    printed = result["stdout_lines"]  # 100,000 each time the closure runs
    assert printed % 100000 == 0 and printed > result["stdout"].count("\n")
    assert mul(MUL)["stdout_lines"] == 0


def test_every_line_printed_is_counted_the_last_one_too_without_its_newline():
    output = CappedOutput()
    for text in ("a", "\nb", "\n", "c" * OUTPUT_LIMIT, "\nd"):
        output.write(text)
    assert output.lines() == 4 and output.truncated  # a, b, c…c and d


def test_a_report_must_count_its_printed_lines():
    observed = observe("mul", {"mul": MUL}, runner_data(catalog()))
    assert judge("mul", {"mul": MUL}, observed).verdict == "pass"
    for forged in (-1, "3", None, 2.0, True):
        assert judge("mul", {"mul": MUL}, observed | {"stdout_lines": forged}).verdict == "error"


def test_rebinding_builtins_changes_neither_verdict_nor_interpreter():
    cheat = "import builtins\nbuiltins.round = lambda *a: 0\nbuiltins.abs = None\n"
    assert mul(cheat + "self.grad += 0.0")["verdict"] == "fail"
    assert mul("global round\nround = lambda *a: 0\nself.grad += 0.0")["verdict"] == "fail"
    assert builtins.round(1.26, 1) == 1.3 and builtins.abs(-2) == 2
    assert mul(cheat + MUL)["verdict"] == "pass"


def test_rebinding_the_graders_own_names_changes_neither_verdict_nor_later_runs():
    """Whatever module the code rebinds a name in (the grader's, json that carries the result
    to the browser, math that the answer key uses), even through a frame, it is put back. Each
    cheat runs to its end (no error), so it reached what it aimed at."""
    for cheat in (
        "import sys\nsys.modules['grader.present'].agrees = lambda *a: True\n",
        "import sys\nsys.modules['runner.precision'].agrees = lambda *a: True\n",
        "import sys\nsys._getframe(1).f_globals['agrees'] = lambda *a: True\n",
        "import sys\nm = sys.modules['grader.judge']\n"
        "if hasattr(m, 'present'):\n    del m.present\n",
        "import sys\nsys.modules['grader.present'].Result.verdict = 'pass'\n",
        "import math\nmath.tanh = lambda x: 0.0\n",
        'import json\njson.dumps = lambda *a, **k: \'{"verdict": "pass"}\'\n',
    ):
        result = json.loads(grade_json("mul", json.dumps({"mul": cheat + "self.grad += 0.0"})))
        assert (result["verdict"], result["error"]) == ("fail", None), cheat
        assert mul("self.grad += 0.0")["verdict"] == "fail", cheat
    assert mul(MUL)["verdict"] == "pass"


def test_numbers_that_lie_about_arithmetic_do_not_pass():
    cheat = "class F(float):\n    def __sub__(s, o):\n        return 0.0\n"
    assert mul(cheat + "self.grad = F(0)\nother.grad = F(0)")["verdict"] == "fail"
    assert mul("self.grad += float('nan')\nother.grad += float('nan')")["verdict"] == "fail"


def test_a_value_where_a_number_belongs_is_explained():
    row = rows(mul("self.grad += other * out.grad\nother.grad += self * out.grad"))[0]
    assert row["got"] is None and row["got_text"] == "Value"
    assert "`other.data`" in row["why"]


def test_an_empty_body_is_a_stub():
    result = mul("")
    assert result["verdict"] == "fail" and result["stubs"] == ["mul"]


def test_learner_code_cannot_import_the_javascript_bridge():
    bodies = (
        "import js",
        "import sys\ndel sys.modules['js']\nimport js",
        "import pyodide",
        "import pyodide.webloop",
        "from _pyodide import _base",
    )
    for body in bodies:
        error = mul(body)["error"]
        assert error["type"] == "ModuleNotFoundError", body
        assert "runs away from the page" in error["message"]
    assert mul("import json\n" + MUL)["verdict"] == "pass"


def test_an_observation_missing_checks_is_not_a_pass():
    """A run that reports fewer checks than the exercise has, and no error, cannot pass."""
    body = (
        "import runner.observe as o\nfor e in o.data()['exercises'].values():\n"
        "    e['checks'].clear()"
    )
    result = grade_json("mul", json.dumps({"mul": body}))
    assert json.loads(result)["verdict"] == "error"
    observed = observe("mul", {"mul": MUL}, runner_data(catalog()))
    observed["checks"] = observed["checks"][:1]
    result = json.loads(judge_json("mul", json.dumps({"mul": MUL}), json.dumps(observed)))
    assert result["verdict"] == "error" and "cannot read" in result["summary"]


def test_a_result_as_data_is_what_asdict_makes_of_it():
    """Result.to_dict's fast conversion, on every exercise's known mistakes: every field of
    every nested result, as JSON, as `dataclasses.asdict` (its deep copies, slow in Pyodide)
    gives it."""
    exercises = catalog()
    for exercise in exercises.values():
        for answer in exercise.known_wrong:
            observed = observe(exercise.id, answer.bodies, runner_data(exercises))
            result = judge(exercise.id, answer.bodies, observed, exercises)
            as_json = json.dumps(result.to_dict())
            assert result.checks or result.error, (exercise.id, answer.name)
            slow = asdict(result)
            for culprit in slow["culprits"]:  # what the judge wrote the diagnosis with
                del culprit["reading"], culprit["covers"]
            assert as_json == json.dumps(slow), (exercise.id, answer.name)


def test_a_result_is_built_once_frozen_and_typed():
    result = mul("self.grad = other.data * out.grad\nother.grad = self.data * out.grad")
    observed = observe("mul", {"mul": "self.grad = 1"}, runner_data(catalog()))
    judged = judge("mul", {"mul": "self.grad = 1"}, observed)
    assert result["verdict"] == "fail" and judged.verdict is Verdict.FAIL
    assert all(isinstance(culprit, Culprit) for culprit in judged.culprits)
    for record in (judged, judged.checks[0], judged.checks[0].rows[0], judged.culprits[0]):
        with pytest.raises(FrozenInstanceError):
            record.passed = True
        assert not any(isinstance(getattr(record, f.name), list) for f in fields(record))
    with pytest.raises(TypeError):
        Row("x.grad", 0, 1.0, 1.0, "1", "1", True, "")  # records are made by keyword
