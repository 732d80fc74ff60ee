"""The nudge tool on an op tab (widget/src/exercise/nudge.js, runner/nudge.py): the measured
slope of each input beside what the learner's code gives it, in a runner like any run, and no
verdict from it."""

import re

import pytest
from playwright.sync_api import expect


def nudge(learner, values=None):
    tool = learner.panel.locator(".mg-nudge")
    if tool.get_attribute("open") is None:
        tool.locator("summary").click()
    for name, value in (values or {}).items():
        tool.get_by_label(f"value of {name}", exact=True).fill(str(value))
    tool.get_by_role("button", name="Nudge", exact=True).click()
    figures = tool.locator("[data-nudge-input]")
    expect(figures.first).to_be_visible(timeout=60_000)
    return {
        figures.nth(i).get_attribute("data-nudge-input"): figures.nth(i)
        for i in range(figures.count())
    }


def slope(figure):
    return float(figure.get_attribute("data-slope"))


def test_the_slopes_of_mul_stand_beside_the_learner_s_grads(learner):
    learner.open_tab("__mul__")
    learner.write("self.grad += other.data * out.grad")  # other forgotten
    figures = nudge(learner, {"x": 1.5, "y": 4.0})
    assert slope(figures["x"]) == pytest.approx(4.0, abs=1e-6)
    assert slope(figures["y"]) == pytest.approx(1.5, abs=1e-6)
    expect(figures["x"]).to_contain_text("x.grad = 4.0000000")
    expect(figures["y"]).to_contain_text("y.grad = 0.0000000")
    assert learner.run() == "fail"  # nudging decided nothing
    assert not learner.passed_mark_visible("__mul__")


def test_a_kink_is_told_by_its_two_sides_and_an_h_that_cannot_nudge_is_said(learner, exercises):
    learner.open_tab("relu")
    learner.write(exercises["relu"].solutions["relu"])
    figures = nudge(learner, {"x": 0})
    expect(figures["x"]).to_contain_text("a kink: 0.0000000 on the left, 1.0000000 on the right")
    tool = learner.panel.locator(".mg-nudge")
    tool.get_by_label("h, the nudge", exact=True).fill("0")
    tool.get_by_role("button", name="Nudge", exact=True).click()
    expect(tool.locator("[data-nudge-h]")).to_have_text(
        "That h cannot nudge (it must be above 0 and not huge): measured with h = 0.00001."
    )


def test_code_that_raises_is_said(learner):
    learner.open_tab("tanh")
    learner.write("self.grad += undefined_name")
    tool = learner.panel.locator(".mg-nudge")
    if tool.get_attribute("open") is None:
        tool.locator("summary").click()
    tool.get_by_role("button", name="Nudge", exact=True).click()
    expect(tool.locator(".mg-nudge__results")).to_contain_text("Your code raised: NameError")


def test_the_output_stands_beside_the_slopes_and_a_power_takes_any_exponent(learner, exercises):
    learner.open_tab("__pow__")
    learner.write(exercises["pow"].solutions["pow"])
    tool = learner.panel.locator(".mg-nudge")
    expect(tool).to_contain_text("x ** n")
    figures = nudge(learner, {"x": 2.0})
    tool.get_by_label("n, the exponent", exact=True).fill("3")
    tool.get_by_role("button", name="Nudge", exact=True).click()
    expect(tool.locator("[data-nudge-output]")).to_have_attribute("data-nudge-output", "8")
    figures = tool.locator("[data-nudge-input='x']")
    assert slope(figures) == pytest.approx(12.0, abs=1e-5)
    expect(figures).to_contain_text("x.grad = 12.0000000")
    expect(tool.locator("[data-nudge-output]")).to_contain_text("out.data = 8.0000000")
    # numbers the op cannot take: said with the learner's build and numbers, not as their crash
    tool.get_by_label("n, the exponent", exact=True).fill("-1")
    tool.get_by_label("value of x", exact=True).fill("0")
    tool.get_by_role("button", name="Nudge", exact=True).click()
    said = r"^x \*\* -1 cannot be measured at x = 0\.0 or beside it: Python says [^.]+\. Try other"
    expect(tool.locator(".mg-nudge__results")).to_have_text(re.compile(said + r" numbers\.$"))


def test_a_figure_from_code_that_changed_is_marked_out_of_date(learner):
    learner.open_tab("sigmoid")
    learner.write("self.grad += 0.5 * out.grad")
    nudge(learner, {"x": 0.0})
    results = learner.panel.locator(".mg-nudge__results")
    expect(results).not_to_have_attribute("data-stale", "")
    learner.write("self.grad += 0.25 * out.grad")
    expect(results).to_have_attribute("data-stale", "")
    expect(learner.panel.locator(".mg-nudge__stale")).to_be_visible()
    figures = nudge(learner)
    expect(results).not_to_have_attribute("data-stale", "")
    expect(figures["x"]).to_contain_text("x.grad = 0.2500000")
