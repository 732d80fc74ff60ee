"""Keyboard only: the tabs follow the WAI-ARIA pattern, Tab indents in the editor and Esc then
Tab leaves it, Ctrl+Enter and the Run button both run the test."""

from playwright.sync_api import expect

LABELS = ["__add__", "__mul__", "__pow__", "tanh", "exp", "relu", "diamond", "log", "sigmoid"]


def focused_tab(learner):
    return learner.widget.locator('[role="tab"]:focus')


def test_arrow_keys_home_and_end_move_between_tabs(new_visitor):
    learner, _ = new_visitor()
    tabs = learner.widget.get_by_role("tab")
    expect(tabs).to_have_count(len(LABELS))
    for i, label in enumerate(LABELS):
        expect(tabs.nth(i)).to_have_accessible_name(label)
    learner.tab("__add__").focus()
    keys = learner.page.keyboard
    for key, label in [
        ("ArrowRight", "__mul__"),
        ("End", "sigmoid"),
        ("ArrowRight", "__add__"),
        ("ArrowLeft", "sigmoid"),
        ("Home", "__add__"),
        ("ArrowRight", "__mul__"),
    ]:
        keys.press(key)
        expect(focused_tab(learner)).to_have_accessible_name(label)
        expect(learner.tab(label)).to_have_attribute("aria-selected", "true")
        expect(learner.tab(label)).to_have_attribute("tabindex", "0")
        expect(learner.widget.locator('[role="tab"][tabindex="0"]')).to_have_count(1)
        tab_id = learner.tab(label).get_attribute("id")
        expect(learner.panel).to_have_attribute("aria-labelledby", tab_id)


def test_keyboard_only_write_run_and_leave_the_editor(new_visitor, exercises):
    learner, _ = new_visitor()
    keys = learner.page.keyboard
    learner.tab("__add__").focus()
    keys.press("ArrowRight")  # __mul__
    for _ in range(5):
        keys.press("Tab")
        if learner.editor.evaluate("el => el === document.activeElement"):
            break
    expect(learner.editor).to_be_focused()

    keys.press("Control+a")
    keys.insert_text(exercises["mul"].solutions["mul"].rstrip("\n") + "\n")
    keys.press("Tab")  # indents: focus stays in the editor
    expect(learner.editor).to_be_focused()
    assert learner.code().endswith("\n    ")
    keys.press("Control+Enter")
    assert learner.verdict() == "pass"

    keys.press("Escape")
    keys.press("Tab")
    run = learner.panel.get_by_role("button", name="Run test", exact=True)
    expect(run).to_be_focused()
    keys.press("Enter")
    assert learner.verdict() == "pass"
    expect(learner.tab("__mul__")).to_have_accessible_name("__mul__")
    assert learner.passed_mark_visible("__mul__")
