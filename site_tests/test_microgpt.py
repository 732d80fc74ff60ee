"""The microgpt widget (docs/microgpt.md): a learner who passed the local-gradient tabs trains
microgpt with their own tuples, watches its names, and breaks it.

Testing contract: the root has `data-microgpt-widget`; a button named "Train" starts it; an
element with `data-step` and `data-loss` (the smoothed loss) follows it; sampled names are in
elements with `data-sample`.
"""

import math
import re

import pytest
from conftest import assert_clean, learner_at
from learner import RUN_TIMEOUT_MS
from playwright.sync_api import expect

MICROGPT_PAGE = "microgpt/"
LOCAL_PAGE = "local-gradients/"
OPS = ("add", "mul", "pow", "log", "exp", "relu")  # microgpt/culprit.py's OPS
UNIFORM = math.log(27)


class Trainer:
    def __init__(self, page):
        self.page = page
        self.widget = page.locator("[data-microgpt-widget]")
        self.stats = self.widget.locator("[data-step][data-loss]")
        self.names = self.widget.locator("[data-sample]")

    def press(self, name):
        self.widget.get_by_role("button", name=name, exact=True).click()

    def step(self):
        return int(self.stats.get_attribute("data-step"))

    def loss(self):
        return float(self.stats.get_attribute("data-loss") or "nan")

    def wait_for(self, condition, timeout_ms=4 * RUN_TIMEOUT_MS):
        waited = 0
        while not condition(self):
            assert waited < timeout_ms, f"still at step {self.step()}, loss {self.loss()}"
            self.page.wait_for_timeout(100)
            waited += 100

    def break_it(self, label):
        settings = self.widget.locator("details")
        if settings.get_attribute("open") is None:
            settings.locator("summary").click()
        self.widget.get_by_label(label).check()


@pytest.fixture(scope="module")
def solved(browser, site, exercises):
    """A learner who passed the six local-gradient tabs, then opened the microgpt page."""
    learner, watch, close = learner_at(browser, site.url + LOCAL_PAGE)
    learner.page.goto(learner.url)
    for op in OPS:
        exercise = exercises[f"local-{op}"]
        assert learner.solve(exercise.label, exercise.solutions[op]) == "pass"
    learner.page.goto(site.url + MICROGPT_PAGE)
    yield Trainer(learner.page)
    close()
    assert_clean(watch)


def test_a_learner_who_passed_trains_microgpt_with_their_own_tuples(solved):
    expect(solved.widget).to_contain_text("Training with your own")
    assert solved.step() == 0 and solved.names.count() == 0
    solved.press("Train")
    expect(solved.names).to_have_count(8, timeout=2 * RUN_TIMEOUT_MS)
    solved.wait_for(lambda t: t.step() >= 60)
    solved.press("Pause")
    expect(solved.stats).to_have_text(re.compile(r"^Paused at step \d+ of 1000 · loss"))
    assert solved.loss() < UNIFORM - 0.2  # from a uniform guess's, learning
    expect(solved.stats).to_contain_text("steps/s")
    plot = solved.widget.get_by_role("img", name="Loss per step")
    expect(plot).to_have_attribute("aria-label", re.compile(r"uniform guess .* 3\.30"))


def test_pause_holds_the_steps_and_more_names_samples_the_model_as_it_is(solved):
    paused = solved.step()
    solved.page.wait_for_timeout(1000)
    assert solved.step() == paused
    before = solved.names.all_inner_texts()
    solved.press("More names")
    expect(solved.names.first).not_to_have_text(before[0])  # fresh names (8 equal draws: ~never)
    assert solved.step() == paused
    solved.press("Step")
    solved.wait_for(lambda t: t.step() == paused + 1)


def test_a_wrong_log_tuple_is_named_and_ruins_the_loss(solved):
    solved.break_it("where 1/x belongs")
    assert solved.step() == 0
    solved.press("Step")
    warning = solved.widget.locator(".mg-notice:not([role=alert])")
    expect(warning).to_contain_text("log's local gradient disagrees with a nudge")
    # the switch's tuple, not the learner's: said, and no tab to fix it in
    expect(warning).to_contain_text("switch “log returns (x,)” put that tuple there, not your code")
    expect(warning.get_by_role("link")).to_have_count(0)
    solved.wait_for(lambda t: t.step() == 1)
    solved.press("Train")
    solved.wait_for(lambda t: t.step() >= 40)
    solved.press("Pause")
    assert solved.loss() > 3 * UNIFORM  # microgpt.md: around ten times a uniform guess's
    solved.press("More names")  # from the model as it is now (Train samples every few seconds)
    expect(solved.names.first).to_have_text("(empty)", timeout=RUN_TIMEOUT_MS)
    solved.widget.get_by_label("where 1/x belongs").uncheck()


def test_unpassed_tabs_are_named_and_the_reference_is_offered(browser, site, exercises):
    learner, watch, close = learner_at(browser, site.url + MICROGPT_PAGE)
    learner.page.goto(learner.url)
    trainer = Trainer(learner.page)
    labels = [exercises[f"local-{op}"].label for op in OPS]
    expect(trainer.widget).to_contain_text(
        "Not passed yet: " + ", ".join(labels) + ", on the Local gradients page."
    )
    expect(trainer.widget.get_by_label("reference code")).to_be_checked()  # none passed
    trainer.press("Step")
    trainer.wait_for(lambda t: t.step() == 1)
    expect(trainer.names).to_have_count(8, timeout=RUN_TIMEOUT_MS)
    close()
    assert_clean(watch)


def test_the_starter_tuples_stop_training_at_step_1_with_links_to_their_tabs(
    browser, site, exercises
):
    """Not six warnings and training on at a uniform guess's loss: one stop, said once, with a
    link to each tab on the Local gradients page (not the closures page)."""
    learner, watch, close = learner_at(browser, site.url + MICROGPT_PAGE)
    learner.page.goto(learner.url)
    trainer = Trainer(learner.page)
    trainer.widget.get_by_label("my code as it is").check()
    trainer.press("Train")
    alert = trainer.widget.get_by_role("alert")
    expect(alert).to_contain_text("Training stopped at step 1: no gradient reached any weight")
    labels = [exercises[f"local-{op}"].label for op in OPS]
    expect(alert).to_contain_text("Still the starter tuples: " + ", ".join(labels))
    expect(trainer.widget.locator(".mg-notice:not([role=alert])")).to_be_hidden()
    expect(trainer.widget.get_by_role("button", name="Train", exact=True)).to_be_enabled()
    alert.get_by_role("link", name=labels[1], exact=True).click()
    learner.page.wait_for_url(re.compile(r"/local-gradients/#tab-local-mul$"))
    tab = learner.page.get_by_role("tab", name=labels[1], exact=True)
    expect(tab).to_have_attribute("aria-selected", "true")
    close()
    assert_clean(watch)
