"""Every check of a result can draw its graph with the learner's grads on it (wrong ones
marked) and step through the learner's own backward pass (widget/src/exercise/graph-view.js),
with the mouse or the keyboard alone."""

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
    expect(figure.locator("svg").first).to_be_visible()
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


def test_the_diamond_marks_a_when_add_uses_an_equals(visit, exercises):
    learner, _ = visit()
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
