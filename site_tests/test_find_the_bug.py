"""A find-the-bug tab in Chromium (docs/find-the-bug.md, `kind = "engine"`): its address opens
it, the engine as shipped fails with the grader's words (and axe finds nothing serious in the
failed tab), and the same engine fixed in the editor passes and earns its mark."""

from learner import Learner, as_read, squash
from playwright.sync_api import expect
from test_accessibility import violations

from grader import grade
from grader.bug_diff import words

PAGE = "find-the-bug/"
TAB = "find-bug-4"


def test_a_tab_fails_as_shipped_and_passes_once_fixed_in_the_editor(fresh_page, site, exercises):
    exercise = exercises[TAB]
    learner = Learner(fresh_page(), f"{site.url}{PAGE}#tab-{TAB}")
    learner.page.goto(learner.url)
    expect(learner.tab(exercise.label)).to_have_attribute("aria-selected", "true")
    shipped_top = "The Value class of micrograd"  # the engine as shipped, its top lines
    expect(learner.editor).to_contain_text(shipped_top)

    said = words(exercise.stubs["engine"], exercise.solutions["engine"])
    expect(learner.panel.locator(".mg-prompt")).to_contain_text(f"with one bug in it: {said}.")
    fix = learner.panel.get_by_role("button", name="Show the fix")
    assert learner.run() == "fail"
    shipped = grade(TAB, exercise.stubs)
    assert as_read(shipped["diagnosis"]) in learner.result_text()
    assert not learner.passed_mark_visible(exercise.label)
    expect(fix).to_be_hidden()  # a run, then every hint: then the way out
    learner.show_every_hint()
    fix.focus()
    learner.page.keyboard.press("Enter")
    hide = learner.panel.get_by_role("button", name="Hide the fix")
    expect(hide).to_have_attribute("aria-expanded", "true")
    [place] = exercise.fix
    shown = learner.panel.locator(".mg-fix__place")
    expect(shown).to_contain_text(f"In {place['where']}")
    # each line as read: its mark, what a screen reader hears instead, and the line itself
    said = {"-": "− Remove: ", "+": "+ Add: ", " ": ""}
    lines = [squash(said[mark] + text) for mark, text in place["lines"]]
    assert [squash(t) for t in shown.locator(".mg-fix__line").all_inner_texts()] == lines
    assert violations(learner.page, "[data-exercise-widget]") == []

    learner.write(exercise.solutions["engine"])
    assert learner.run() == "pass"
    assert as_read(grade(TAB, exercise.solutions)["summary"]) in learner.result_text()
    assert learner.passed_mark_visible(exercise.label)


def test_an_edit_in_one_browser_tab_shows_in_the_other(fresh_page, site, exercises):
    """An engine tab's code is saved under a key of its own (model.js `exerciseCodeKey`), and a
    second browser tab shows an edit made in the first, as an op tab does."""
    label = exercises[TAB].label
    first = Learner(fresh_page(), f"{site.url}{PAGE}#tab-{TAB}")
    first.page.goto(first.url)
    second = Learner(first.page.context.new_page(), first.url)
    second.page.goto(second.url)
    expect(second.tab(label)).to_have_attribute("aria-selected", "true")
    expect(first.editor).to_be_visible()
    first.write("# the engine, rewritten in the first tab\n")
    expect(second.editor).to_have_text("# the engine, rewritten in the first tab")
    expect(second.widget.get_by_text("was changed in another browser tab")).to_contain_text(label)
