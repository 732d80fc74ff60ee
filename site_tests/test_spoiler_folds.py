"""Find the bug's engines in Chromium: a closure whose op tab the learner has not passed comes
folded, marked as a spoiler (widget/src/editor/folds.js), and opens on a click; once the tab
has passed, it shows."""

from conftest import assert_clean, learner_at
from playwright.sync_api import expect

PAGE = "find-the-bug/"
ADD = "other.grad += 1.0 * out.grad"  # __add__'s closure, the engine's first, in view


def test_an_unpassed_tab_s_closure_is_folded_until_opened_or_passed(browser, site, exercises):
    learner, watch, close = learner_at(browser, f"{site.url}{PAGE}#tab-find-bug-4")
    try:
        learner.page.goto(learner.url)
        _scroll_to_the_closures(learner)
        spoilers = learner.panel.locator(".mg-spoiler")
        expect(spoilers.first).to_be_visible()
        expect(learner.editor).not_to_contain_text(ADD)
        spoilers.first.click()
        expect(learner.editor).to_contain_text(ADD)

        add = exercises["add"]
        learner.page.evaluate(
            "([key, version]) => localStorage.setItem(key, JSON.stringify("
            "{version, attempted: true, passedWith: 'x', solved: true}))",
            ["micrograd:/:v1:progress:add", add.version],
        )
        learner.page.reload()
        _scroll_to_the_closures(learner)
        expect(learner.panel.locator(".mg-spoiler").first).to_be_visible()
        expect(learner.editor).to_contain_text(ADD)
    finally:
        close()
    assert_clean(watch)


def _scroll_to_the_closures(learner):
    """CodeMirror draws only the lines near its view: scroll the editor (a box of its own) to
    where the engine's first closures are, below its imports and __init__."""
    scroller = learner.panel.locator(".cm-scroller")
    scroller.wait_for()
    scroller.evaluate("e => { e.scrollTop = 500 }")
