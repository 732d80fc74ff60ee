"""Grading in the browser agrees with the grader: reference bodies pass, known mistakes fail
with their explanation, the diamond runs every body and names the closure at fault, errors
point at the learner's line, and a tab's ✓ follows its code."""

import pytest
from learner import as_read, squash
from playwright.sync_api import expect

from grader import grade
from grader.diagnosis.explain import DIAGNOSES

OPS = ["add", "mul", "pow", "tanh", "exp", "relu"]


def mistake(exercise, key):
    """The exercise's known-wrong answer diagnosed as `key` alone."""
    return next(answer for answer in exercise.known_wrong if answer.diagnoses == (key,))


def rows(result):
    return [row for check in result["checks"] for row in check["rows"]]


@pytest.mark.parametrize("op", OPS)
def test_reference_body_passes_and_earns_a_check_mark(learner, exercises, op):
    exercise = exercises[op]
    assert learner.solve(exercise.label, exercise.solutions[op]) == "pass"
    assert squash(grade(op, exercise.solutions)["summary"]) in learner.result_text()
    assert learner.passed_mark_visible(exercise.label)
    expect(learner.panel.get_by_text("Why it works")).to_be_visible()


@pytest.mark.parametrize("op", OPS)
def test_assignment_instead_of_accumulation_fails_with_its_explanation(learner, exercises, op):
    exercise = exercises[op]
    bodies = mistake(exercise, "assign").bodies
    expected = grade(op, bodies)
    assert learner.solve(exercise.label, bodies[op]) == expected["verdict"] == "fail"
    text = learner.result_text()
    assert as_read(DIAGNOSES["assign"]) in text
    failed = learner.result.locator(".mg-check.is-failed")
    assert failed.count() == sum(not row["passed"] for row in rows(expected)) > 0
    first = next(row for row in rows(expected) if not row["passed"])
    expect(failed.first).to_contain_text(first["got_text"])
    expect(failed.first).to_contain_text(first["expected_text"])
    assert not learner.passed_mark_visible(exercise.label)


def test_diamond_passes_with_every_reference_body_and_fails_with_one_assignment(learner, exercises):
    for op in OPS:
        learner.solve(exercises[op].label, exercises[op].solutions[op])
    learner.open_tab("diamond")
    expect(learner.panel.get_by_text("starter code")).to_have_count(0)
    assert learner.run() == "pass"
    assert learner.passed_mark_visible("diamond")

    wrong = mistake(exercises["diamond"], "assign").bodies
    for op, body in wrong.items():
        if body != exercises[op].solutions[op]:
            learner.open_tab(exercises[op].label)
            learner.write(body)
    learner.open_tab("diamond")
    expected = grade("diamond", {**exercises["diamond"].solutions, **wrong})
    assert learner.run() == expected["verdict"] == "fail"
    assert as_read(DIAGNOSES["assign"]) in learner.result_text()
    assert not learner.passed_mark_visible("diamond")


def test_micrograds_own_example_runs_on_the_closures_the_learner_wrote(
    new_visitor, site, exercises
):
    """backward.md ends with micrograd's README example as a tab of its own, which brings the
    op tabs it runs, holding the code the learner wrote on the exercise page."""
    learner, _ = new_visitor()
    for op in exercises["micrograd"].ops:
        assert learner.solve(exercises[op].label, exercises[op].solutions[op]) == "pass"
    learner.page.goto(site.url + "backward/")
    learner.open_tab("micrograd")
    assert learner.run() == "pass"
    assert "138.8338192" in learner.result_text() and "645.5772595" in learner.result_text()

    wrong = mistake(exercises["micrograd"], "assign").bodies
    for op, body in wrong.items():
        learner.open_tab(exercises[op].label)
        assert learner.code() == exercises[op].solutions[op].strip()
        learner.write(body)
    learner.open_tab("micrograd")
    assert learner.run() == "fail"
    assert as_read(DIAGNOSES["assign"]) in learner.result_text()


def test_the_diamond_names_the_closure_with_an_equals_and_opens_its_tab(new_visitor, exercises):
    learner, _ = new_visitor()
    for op in OPS:
        learner.solve(exercises[op].label, exercises[op].solutions[op])
    wrong = mistake(exercises["mul"], "assign").bodies["mul"]
    learner.solve("__mul__", wrong)
    learner.open_tab("diamond")
    # every op's tab has passed: their rules are told (grader/disclosure.py)
    expected = grade("diamond", {**exercises["diamond"].solutions, "mul": wrong}, told=OPS)
    assert learner.run() == "fail"
    [culprit] = expected["culprits"]
    assert culprit["label"] == "__mul__" and "set a.grad to its own share" in culprit["sentence"]
    assert as_read(culprit["sentence"]) in learner.result_text()
    learner.result.get_by_role("button", name="Open the __mul__ tab").click()
    expect(learner.tab("__mul__")).to_have_attribute("aria-selected", "true")
    expect(learner.tab("__mul__")).to_be_focused()


def test_a_closure_that_calls_another_fails_on_its_own_tab(learner, exercises):
    body = mistake(exercises["tanh"], "calls_closure").bodies["tanh"]
    assert learner.solve("tanh", body) == "fail"
    assert "x.grad and y.grad received their contributions twice" in learner.result_text()


def test_a_nested_def_gets_its_own_sentence(learner, exercises):
    body = mistake(exercises["mul"], "nested_def").bodies["mul"]
    assert learner.solve("__mul__", body) == "fail"
    assert as_read(DIAGNOSES["nested_def"]) in learner.result_text()


def test_editing_a_passed_tab_clears_its_mark_until_it_passes_again(new_visitor, exercises):
    learner, _ = new_visitor()
    solution = exercises["mul"].solutions["mul"]
    assert learner.solve("__mul__", solution) == "pass"
    assert learner.passed_mark_visible("__mul__")
    learner.write(solution + "\n# changed")
    assert not learner.passed_mark_visible("__mul__")
    expect(learner.tab("__mul__")).to_have_attribute("aria-description", "changed since it passed")
    expect(learner.panel.get_by_text("You changed this code since it passed")).to_be_visible()
    learner.write(solution)  # back to what passed: the mark is back
    assert learner.passed_mark_visible("__mul__")
    learner.reload()
    assert learner.passed_mark_visible("__mul__")


def test_diamond_names_the_closures_still_at_their_stub(new_visitor, exercises):
    learner, _ = new_visitor()
    learner.solve("__add__", exercises["add"].solutions["add"])
    learner.open_tab("diamond")
    stubs = [exercises[op].label for op in OPS if op != "add"]
    for label in stubs:
        expect(learner.panel.get_by_role("listitem").filter(has_text=label)).to_contain_text(
            "starter code"
        )
    expected = grade("diamond", {"add": exercises["add"].solutions["add"]})
    assert "Still the starter code" in expected["summary"]
    assert expected["stubs"] == [op for op in OPS if op != "add"]
    assert learner.run() == expected["verdict"]
    assert squash(expected["summary"]) in learner.result_text()


def test_syntax_error_points_at_the_learners_line(learner, exercises):
    body = "self.grad += out.grad\nother.grad += out.grad)\n"
    expected = grade("add", {"add": body})["error"]
    assert expected["line"] == 2
    assert learner.solve("__add__", body) == "error"
    text = learner.result_text()
    assert "line 2" in text and "other.grad += out.grad)" in text
    expect(learner.panel.locator(".cm-line.mg-line-error")).to_have_text("other.grad += out.grad)")


def test_printed_output_is_shown_as_text_never_as_html(learner, exercises):
    body = exercises["add"].solutions["add"] + '\nprint("<b>bold</b><script>x()</script>")\n'
    assert learner.solve("__add__", body) == "pass"
    output = learner.result.locator("details", has_text="What your code printed")
    output.locator("summary").click()
    expect(output.locator("pre")).to_contain_text("<b>bold</b><script>x()</script>")
    expect(output.locator("b")).to_have_count(0)
