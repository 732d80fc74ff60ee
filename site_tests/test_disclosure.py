"""The answer only when the learner asks (grader/disclosure.py, widget/src/exercise/ladder.js):
in a fresh profile, Run on any op tab's stub or a known wrong answer shows no local derivative,
on both exercise pages; at the formula rung (every hint shown) the verdict tells the rule."""

from playwright.sync_api import expect

from grader.disclosure import tells


def op_tabs(exercises, design):
    return [e for e in exercises.values() if e.kind == "op" and e.design == design]


def test_a_fresh_learner_running_each_stub_is_told_no_rule(learner, local_learner, exercises):
    for who, design in ((learner, "closures"), (local_learner, "local_grads")):
        for exercise in op_tabs(exercises, design):
            who.open_tab(exercise.label)
            assert who.run() == "fail"
            assert tells(who.result.inner_text()) == [], (exercise.id, who.result_text())


def test_a_known_wrong_answer_is_told_by_its_numbers_then_by_its_rule(learner, exercises):
    """Below the formula rung: what went wrong and where to measure; at it, the rule."""
    wrong = next(a for a in exercises["sigmoid"].known_wrong if a.diagnoses == ("sigmoid_input",))
    assert learner.solve("sigmoid", wrong.bodies["sigmoid"]) == "fail"
    text = learner.result.inner_text()
    assert tells(text) == [] and "Nudge x at 0.0" in text
    learner.show_every_hint()
    assert learner.run() == "fail"
    assert "sigmoid" in {op for op, _ in tells(learner.result.inner_text())}


def test_the_offer_of_a_next_hint_goes_once_every_hint_is_shown(local_learner):
    local_learner.open_tab("exp")
    local_learner.write("(1.0,)")
    assert local_learner.run() == "fail"
    offer = local_learner.panel.get_by_role("button", name="Show the next hint")
    expect(offer).to_be_visible()
    local_learner.show_every_hint()
    expect(offer).to_have_count(0)


def test_a_worked_tab_names_its_page_and_a_tab_to_find_names_none(learner, exercises):
    learner.open_tab("__add__")
    expect(learner.panel.locator(".mg-worked")).to_contain_text(exercises["add"].worked)
    learner.open_tab("sigmoid")
    expect(learner.panel.locator(".mg-worked")).to_have_count(0)


def test_reset_takes_the_old_result_away(learner):
    learner.open_tab("exp")
    learner.write("self.grad += 2.0")
    assert learner.run() == "fail"
    learner.panel.get_by_role("button", name="Reset", exact=True).click()
    expect(learner.panel.locator("[data-verdict]")).to_have_count(0)
