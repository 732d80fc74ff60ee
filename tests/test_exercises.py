"""The maintainers' check: every reference passes, every stub and known-wrong answer fails,
each wrong answer with the diagnoses it deserves, through the grader the browser runs, each
answer in a process of its own (grader/cli/isolated.py)."""

import copy
from functools import cache

import pytest

from grader import exercises as definitions
from grader import grade
from grader.answer_key import answer
from grader.cli.isolated import grade_isolated
from grader.cli.report import as_expected, graded
from grader.exercises import expectations, load_catalog
from grader.ops import OPS as OPS_BY_NAME

CATALOG = load_catalog()
ANSWERS = list(expectations(CATALOG))
OPS = [exercise.id for exercise in CATALOG.values() if exercise.kind == "op"]


@cache
def results():
    """Every answer graded, in parallel, once: when the first test asks (not as the module is
    collected, which every test process does)."""
    return [result for _, result in graded(CATALOG)]


@pytest.mark.parametrize("index", range(len(ANSWERS)), ids=[f"{a[0].id}: {a[1]}" for a in ANSWERS])
def test_answer_gets_its_verdict_and_diagnoses(index):
    """On both sides of the formula rung: what the learner is told changes, the verdict not."""
    exercise, name, bodies, should_pass, wanted = ANSWERS[index]
    for side in results()[index].values():
        assert as_expected(side, should_pass, wanted), (side["summary"], side["diagnoses"])


def test_every_op_has_the_classic_wrong_answers(exercises):
    """At least `=` and a missing out.grad (closures), and a wrong local derivative."""
    for op in OPS:
        exercise = exercises[op]
        keys = {key for answer in exercise.known_wrong for key in answer.diagnoses}
        if exercise.design == "closures":
            assert {"assign", "no_upstream"} <= keys, op
        assert keys & set(OPS_BY_NAME[exercise.ops[0]].wrong), op


def test_each_op_is_checked_on_several_inputs_on_a_computed_node_and_upstream_gradients(exercises):
    for name in OPS:
        checks = exercises[name].checks
        [op] = exercises[name].ops
        assert len({tuple(check.leaves.values()) for check in checks}) >= 3, name
        assert any(check.grad != 1.0 for check in checks), name
        graphs = [answer(check)[0] for check in checks]
        computed = [
            nodes
            for nodes in graphs
            if any(
                node.op and node.op.name == op and any(o.op for o in node.operands)
                for node in nodes
            )
        ]
        assert computed, f"{name}: no check applies the op to a computed node"


def test_a_process_that_ends_or_hangs_does_not_pass(exercises):
    ends = "import os\nos._exit(0)"
    result = grade_isolated("mul", {"mul": ends}, CATALOG)
    assert result["verdict"] == "error" and "ended" in result["summary"]


def test_a_run_of_more_steps_than_the_step_through_keeps_says_so(exercises):
    calls_again = exercises["mul"].solutions["mul"] + "\nfor _ in range(300):\n    self._backward()"
    kept = grade("mul", {"mul": calls_again})["checks"]
    right = grade("mul", exercises["mul"].solutions)["checks"]
    assert all(check["steps_dropped"] and len(check["steps"]) == 200 for check in kept)
    assert not any(check["steps_dropped"] for check in right)


def test_diamond_reports_which_closures_are_still_stubs(exercises):
    bodies = dict(exercises["diamond"].solutions, tanh=exercises["tanh"].stubs["tanh"])
    result = grade("diamond", bodies)
    assert result["verdict"] == "fail"
    assert result["stubs"] == ["tanh"]
    assert "Still the starter code: tanh." in result["summary"]


def test_diamond_values_from_the_lessons(exercises):
    """a.grad 15 in the diamond (both orders), 4 in the chain, and the neuron's grads."""
    checks = grade("diamond", exercises["diamond"].solutions)["checks"]
    got = [[(row["value"], row["expected_text"]) for row in check["rows"]] for check in checks]
    assert got[0] == [("a.grad", "15.0000000"), ("b.grad", "6.0000000"), ("c.grad", "3.0000000")]
    assert got[1] == got[0]
    assert got[2] == [("a.grad", "4.0000000"), ("b.grad", "2.0000000")]
    neuron = dict(got[3])
    assert neuron == {
        "x1.grad": "-1.5000000",
        "x2.grad": "0.5000000",
        "w1.grad": "1.0000000",
        "w2.grad": "0.0000000",
        "b.grad": "0.5000000",
    }
    assert dict(got[4]) == neuron


def test_an_equals_bug_fails_in_either_operand_order_and_names_its_closure(exercises):
    """With `=` in __mul__, `b * c` happens to pass, `c * b` must not, and the result says
    which closure replaced which grad."""
    wrong = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
    result = grade("diamond", dict(exercises["diamond"].solutions, mul=wrong))
    first, second = result["checks"][0]["rows"], result["checks"][1]["rows"]
    assert all(row["passed"] for row in first)
    assert not second[0]["passed"] and second[0]["got_text"] == "9.0000000"
    [culprit] = result["culprits"]
    assert culprit["label"] == "__mul__" and culprit["diagnoses"] == ["assign"]
    assert "set a.grad to its own share, 9.0, dropping the 6.0" in culprit["sentence"]


def test_the_judge_takes_the_catalog_the_build_read_where_there_is_one(tmp_path, monkeypatch):
    """grader.zip carries the build's catalog (course/assets.py): the browser's judge reads
    that, and a checkout, which has none, reads exercises/."""
    built = tmp_path / "catalog.pickle"
    built.write_bytes(definitions.built_catalog({"add": "as the build read it"}))
    read_once = definitions.catalog.__wrapped__  # what the cache keeps
    monkeypatch.setattr(definitions, "BUILT_CATALOG", built)
    assert read_once() == {"add": "as the build read it"}
    monkeypatch.setattr(definitions, "BUILT_CATALOG", tmp_path / "none")
    assert read_once() == definitions.load_catalog()


def test_reading_the_exercises_leaves_each_parsed_file_as_it_was(monkeypatch):
    """The catalog is built from the TOML, never in it: each kind's checks (op, graph, checker,
    engine) make new records, and the file's own dict keeps its lists and its missing keys."""
    parsed = []
    read = definitions.read_toml

    def recording(path):
        spec = read(path)
        if path.name == "exercise.toml":
            parsed.append((spec, copy.deepcopy(spec)))
        return spec

    monkeypatch.setattr(definitions, "read_toml", recording)
    kinds = {exercise.kind for exercise in definitions.load_catalog().values()}
    assert kinds >= {"op", "graph", "checker", "engine"}
    assert len(parsed) == len(CATALOG)
    for spec, as_read in parsed:
        assert spec == as_read
