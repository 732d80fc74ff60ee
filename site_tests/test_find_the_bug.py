"""A find-the-bug tab in Chromium (docs/find-the-bug.md, `kind = "engine"`): its address opens
it, the engine as shipped fails with the grader's words (and axe finds nothing serious in the
failed tab), and the same engine fixed in the editor passes and earns its mark."""

from conftest import assert_clean, learner_at
from learner import as_read
from playwright.sync_api import expect
from test_accessibility import violations

from grader import grade

PAGE = "find-the-bug/"
TAB = "find-bug-4"


def test_a_tab_fails_as_shipped_and_passes_once_fixed_in_the_editor(browser, site, exercises):
    exercise = exercises[TAB]
    learner, watch, close = learner_at(browser, f"{site.url}{PAGE}#tab-{TAB}")
    try:
        learner.page.goto(learner.url)
        expect(learner.tab(exercise.label)).to_have_attribute("aria-selected", "true")
        shipped_top = "The Value class of micrograd"  # the engine as shipped, its top lines
        expect(learner.editor).to_contain_text(shipped_top)

        assert learner.run() == "fail"
        shipped = grade(TAB, exercise.stubs)
        assert as_read(shipped["diagnosis"]) in learner.result_text()
        assert not learner.passed_mark_visible(exercise.label)
        assert violations(learner.page, "[data-exercise-widget]") == []

        learner.write(exercise.solutions["engine"])
        assert learner.run() == "pass"
        assert as_read(grade(TAB, exercise.solutions)["summary"]) in learner.result_text()
        assert learner.passed_mark_visible(exercise.label)
    finally:
        close()
    assert_clean(watch)
