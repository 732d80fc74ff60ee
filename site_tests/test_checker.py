"""The checker tab of "Check your engine" (docs/check-your-engine.md): graded in the page as the
op tabs are, and its plot of the error against h drawn from the learner's closures, a U."""

import json

import pytest
from conftest import assert_clean, learner_at
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def checker(browser, site):
    learner, watch, close = learner_at(browser, site.url + "check-your-engine/")
    learner.page.goto(learner.url)
    learner.tab("gradient check").wait_for()
    yield learner
    close()
    assert_clean(watch)


def test_the_reference_passes_and_a_forward_difference_fails(checker, exercises):
    exercise = exercises["gradient-check"]
    checker.write(exercise.solutions["checker"])
    assert checker.run() == "pass"
    forward = next(a for a in exercise.known_wrong if a.name == "forward difference")
    checker.write(forward.bodies["checker"])
    assert checker.run() == "fail"
    # the tab has passed once, so its verdicts may name the formula (grader/disclosure.py)
    expect(checker.result).to_contain_text("takes a forward difference")


def test_the_plot_draws_a_u_and_the_kink_measures_one_half(checker):
    section = checker.panel.locator(".mg-checker-plot__section")
    section.get_by_role("button", name="Measure", exact=True).click()
    figure = section.locator(".mg-checker-plot")
    expect(figure).to_have_attribute("data-plot", "drawn", timeout=60_000)
    expect(figure.locator("canvas")).to_have_count(1)
    hs = json.loads(figure.get_attribute("data-hs"))
    central = json.loads(figure.get_attribute("data-central"))
    lowest = central.index(min(central))
    assert 1e-9 < hs[lowest] < 1e-3  # the bottom of the U is in the middle of the range
    assert central[0] > 100 * central[lowest] and central[-1] > 100 * central[lowest]
    kink = section.locator("[data-kink-slope]")
    assert float(kink.get_attribute("data-kink-slope")) == pytest.approx(0.5)


def test_the_plot_follows_a_resize_and_a_switch_of_scheme(checker):
    """As the trainers' plots do (widget/src/plots/plots.js): the plot keeps to its box's
    width, and is drawn anew when the colour scheme switches (its colours are read as it draws)."""
    section = checker.panel.locator(".mg-checker-plot__section")
    figure = section.locator(".mg-checker-plot")
    if figure.get_attribute("data-plot") != "drawn":
        section.get_by_role("button", name="Measure", exact=True).click()
        expect(figure).to_have_attribute("data-plot", "drawn", timeout=60_000)
    page, handle = checker.page, figure.element_handle()
    size = page.viewport_size
    width = "f => f.querySelector('canvas').getBoundingClientRect().width"
    assert handle.evaluate(width) > 390
    page.set_viewport_size({"width": 390, "height": size["height"]})
    try:
        page.wait_for_function(f"f => ({width})(f) < 390", arg=handle)
        handle.evaluate("f => { f.querySelector('canvas').dataset.before = ''; }")
        scheme = page.evaluate("document.body.dataset.mdColorScheme")
        other = "default" if scheme == "slate" else "slate"
        page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", other)
        page.wait_for_function("f => f.querySelector('canvas:not([data-before])')", arg=handle)
        page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    finally:
        page.set_viewport_size(size)


def test_the_tab_shows_no_value_class_and_no_stray_text(checker):
    """A checker tab is an op tab without a Value class: no "Show the full class", no nudge."""
    expect(checker.panel.get_by_role("button", name="Run test", exact=True)).to_be_visible()
    assert checker.panel.locator(".mg-nudge").count() == 0
    expect(checker.panel).not_to_contain_text("undefined")
    expect(checker.panel).not_to_contain_text("Value class")
