"""Every check of a result can draw its graph with the learner's grads on it (wrong ones
marked) and step through the learner's own backward pass (widget/src/exercise/graph-view.js),
with the mouse or the keyboard alone."""

import pytest
from conftest import assert_clean, learner_at
from playwright.sync_api import expect

from grader import grade

ASSIGN_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
ASSIGN_ADD = "self.grad = 1.0 * out.grad\nother.grad = 1.0 * out.grad"


def check_group(learner, built):
    """The result's rows of the check built by `built` (its first line, as the table shows it)."""
    return (
        learner.result.locator("tbody")
        .filter(has=learner.page.locator("code", has_text=built))
        .first
    )


def open_graph(learner, built):
    group = check_group(learner, built)
    group.get_by_role("button", name="Show the graph").click()
    figure = learner.result.locator("figure.mg-graph--check").last
    expect(figure.locator("svg >> visible=true")).to_have_count(1)  # the drawing that fits
    return figure


def states(figure):
    svg = figure.locator(".mg-graph__canvas--wide svg")
    return dict(
        svg.locator("[data-node]").evaluate_all(
            "els => els.map((e) => [e.dataset.node, e.dataset.gradState])"
        )
    )


def test_every_check_has_a_graph_button(learner, exercises):
    result = grade("mul", {"mul": exercises["mul"].solutions["mul"]})
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
    buttons = learner.result.get_by_role("button", name="Show the graph")
    expect(buttons).to_have_count(len(result["checks"]))


def test_an_equals_in_mul_marks_x_wrong_and_the_steps_show_it_replaced(learner):
    assert learner.solve("__mul__", ASSIGN_MUL) == "fail"
    figure = open_graph(learner, "x * x")
    assert states(figure) == {"x": "wrong", "out": "unchecked"}
    expect(figure.locator(".mg-graph__canvas--wide [data-node=x]")).to_contain_text(
        "expected 9.0000"
    )
    figure.get_by_role("button", name="Step through backward()").click()
    step = figure.locator(".mg-graph__step")
    expect(step).to_contain_text("Before the first step: out.grad is 1.5000")
    figure.get_by_role("button", name="Next step").click()
    expect(step).to_contain_text("x.grad 4.5000 → 4.5000 (replaced what was there)")
    expect(step).to_have_attribute("aria-live", "polite")
    figure.get_by_role("button", name="Previous step").click()
    expect(step).to_contain_text("Before the first step")


def test_with_correct_code_every_checked_node_is_right(learner, exercises):
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
    figure = open_graph(learner, "(x + y) * z")
    assert states(figure) == {
        "x": "right",
        "y": "right",
        "x + y": "unchecked",
        "z": "right",
        "out": "unchecked",
    }


def test_the_diamond_marks_a_when_add_uses_an_equals(new_visitor, exercises):
    learner, _ = new_visitor()
    for op in ("add", "mul", "pow", "tanh", "exp", "relu"):
        learner.solve(exercises[op].label, exercises[op].solutions[op])
    learner.solve("__add__", ASSIGN_ADD)
    learner.open_tab("diamond")
    assert learner.run() == "fail"
    figure = open_graph(learner, "b = a + 1")  # the first check: d = b * c
    assert states(figure)["a"] == "wrong"
    assert states(figure)["b"] == states(figure)["c"] == "right"


def test_the_graph_and_its_steps_work_with_the_keyboard_alone(learner):
    assert learner.solve("__mul__", ASSIGN_MUL) == "fail"
    show = check_group(learner, "x * x").locator(".mg-graph-button")
    expect(show).to_have_accessible_name("Show the graph")
    show.focus()
    keys = learner.page.keyboard
    keys.press("Enter")
    expect(show).to_have_accessible_name("Hide the graph")
    expect(show).to_have_attribute("aria-expanded", "true")
    figure = learner.result.locator("figure.mg-graph--check").last
    start = figure.get_by_role("button", name="Step through backward()")
    start.focus()
    keys.press("Enter")
    expect(figure.get_by_role("button", name="Next step")).to_be_focused()
    keys.press("Enter")
    expect(figure.locator(".mg-graph__step")).to_contain_text("Step 1 of")
    keys.press("Shift+Tab")
    expect(figure.get_by_role("button", name="Previous step")).to_be_focused()
    keys.press("Enter")
    expect(figure.locator(".mg-graph__step")).to_contain_text("Before the first step")


# the smallest text of the shown drawing, in CSS pixels as drawn, and whether its box scrolls
DRAWN = """figure => {
  const shown = [...figure.querySelectorAll(".mg-graph__canvas svg")];
  const svg = shown.find((s) => s.checkVisibility());
  const sizes = [...svg.querySelectorAll("text[font-size]")].map(
    (t) => Number(t.getAttribute("font-size")) * t.getScreenCTM().a);
  const box = svg.parentElement;
  return {layout: figure.dataset.layout, text: Math.min(...sizes),
          scrolls: box.scrollWidth > box.clientWidth, focusable: box.tabIndex === 0};
}"""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}}, "phone": PHONE}


@pytest.mark.parametrize("size", SIZES)
def test_the_diamonds_largest_check_is_drawn_with_text_a_learner_can_read(
    browser, site, widget_page, exercises, size
):
    """The tanh check's graph (18 values and their ops) was scaled to ~5 px text: now its text is
    at least 12 px, the top-down drawing shown where the left-to-right one would not fit, and
    on a phone its box scrolls sideways, with the keyboard too."""
    learner, watch, close = learner_at(browser, site.url + widget_page.lstrip("/"), **SIZES[size])
    learner.open()
    for op in ("add", "mul", "pow", "tanh", "exp", "relu"):
        assert learner.solve(exercises[op].label, exercises[op].solutions[op]) == "pass"
    learner.open_tab("diamond")
    assert learner.run() == "pass"
    figure = open_graph(learner, "e = (2 * n).exp()")
    drawn = figure.evaluate(DRAWN)
    assert drawn["text"] >= 12 - 0.01, drawn
    assert drawn["layout"] == "narrow"
    assert drawn["scrolls"] == drawn["focusable"] == (size == "phone"), drawn
    close()
    assert_clean(watch)
