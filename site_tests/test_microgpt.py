"""The microgpt widget (docs/microgpt.md): a learner who passed the local-gradient tabs trains
microgpt with their own tuples, watches its names, and breaks it.

Testing contract: the root has `data-microgpt-widget`; a button named "Train" starts it; an
element with `data-step` and `data-loss` (the smoothed loss) follows it; sampled names are in
elements with `data-sample`; the root's `data-state` is the trainer's (site_tests/trainer.py).
"""

import math
import re

import pytest
from conftest import assert_clean, learner_at
from learner import RUN_TIMEOUT_MS
from playwright.sync_api import expect
from trainer import Trainer, newcomer_at

MICROGPT_PAGE = "microgpt/"
LOCAL_PAGE = "local-gradients/"
OPS = ("add", "mul", "pow", "log", "exp", "relu")  # microgpt/culprit.py's OPS
UNIFORM = math.log(27)


class Microgpt(Trainer):
    def __init__(self, page):
        super().__init__(page, "data-microgpt-widget", "data-loss", timeout_ms=4 * RUN_TIMEOUT_MS)
        self.names = self.widget.locator("[data-sample]")

    def loss(self):
        return float(self.stats.get_attribute("data-loss") or "nan")


@pytest.fixture(scope="module")
def solved(kept_profiles, site, exercises):
    """A learner who passed the six local-gradient tabs, then opened the microgpt page."""
    learner, watch, close = learner_at(kept_profiles, site.url + LOCAL_PAGE)
    learner.page.goto(learner.url)
    for op in OPS:
        exercise = exercises[f"local-{op}"]
        assert learner.solve(exercise.label, exercise.solutions[op]) == "pass"
    learner.page.goto(site.url + MICROGPT_PAGE)
    yield Microgpt(learner.page)
    close()
    assert_clean(watch)


def test_a_learner_who_passed_trains_microgpt_with_their_own_tuples(solved):
    expect(solved.widget).to_contain_text("Training with your own")
    assert solved.step() == 0 and solved.names.count() == 0
    solved.press("Train")
    expect(solved.names).to_have_count(8, timeout=2 * RUN_TIMEOUT_MS)
    solved.wait_for(lambda t: t.step() >= 60)
    solved.pause()
    expect(solved.stats).to_have_text(re.compile(r"^Paused at step \d+ of 1000 · loss"))
    assert solved.loss() < UNIFORM - 0.2  # from a uniform guess's, learning
    expect(solved.stats).to_contain_text("steps/s")
    plot = solved.widget.get_by_role("img", name="Loss per step")
    expect(plot).to_have_attribute("aria-label", re.compile(r"uniform guess .* 3\.30"))


def test_pause_holds_the_steps_and_more_names_samples_the_model_as_it_is(solved):
    """Paused, the trainer rests (`data-state`): nothing more is asked, so the step the pause
    says is the step the page is at; More names asks for names and takes no step."""
    solved.rests("paused")
    paused = solved.step()
    expect(solved.stats).to_have_text(re.compile(rf"^Paused at step {paused} of 1000 · loss"))
    before = solved.names.all_inner_texts()
    solved.press("More names")
    expect(solved.names.first).not_to_have_text(before[0])  # fresh names (8 equal draws: ~never)
    solved.rests("paused")
    assert solved.step() == paused
    assert solved.step_once() == paused + 1


def test_a_wrong_log_tuple_is_named_and_ruins_the_loss(solved):
    solved.break_it("log returns (x,)")
    assert solved.step() == 0
    solved.press("Step")
    warning = solved.widget.locator(".mg-notice:not([role])")
    expect(warning).to_contain_text("log's local gradient disagrees with a nudge")
    # the switch's tuple, not the learner's: said, and no tab to fix it in
    expect(warning).to_contain_text("switch “log returns (x,)” put that tuple there, not your code")
    expect(warning.get_by_role("link")).to_have_count(0)
    solved.wait_for(lambda t: t.step() == 1)
    solved.press("Train")
    solved.wait_for(lambda t: t.step() >= 40)
    solved.pause()
    assert solved.loss() > 3 * UNIFORM  # microgpt.md: around ten times a uniform guess's
    solved.press("More names")  # from the model as it is now (Train samples every few seconds)
    expect(solved.names.first).to_have_text("(empty)", timeout=RUN_TIMEOUT_MS)
    solved.widget.get_by_label("log returns (x,)").uncheck()


# a switch of each kind (a wrong tuple's, a setting's), the steps its run takes, its verdict and
# words its end says; every switch's run, recorded in CPython, is judged and worded in
# tests/widget/verdict.test.mjs, so the browser walks the wiring, not each run again
ENDS = [
    ("log returns (x,)", 30, "rose", "The culprit: log's local gradient disagrees with a nudge"),
    (
        "times microgpt",
        30,
        "chance",
        "learning rate 10 times microgpt's is on: Adam's steps overshoot",
    ),
]


def test_a_break_it_switch_ends_its_run_with_a_sentence_naming_the_failure(solved):
    steps = solved.widget.get_by_role("spinbutton", name="Steps")
    for switch, count, verdict, blamed in ENDS:
        solved.break_it(switch)
        steps.fill(str(count))
        steps.dispatch_event("change")
        solved.press("Train")
        solved.rests("finished", timeout_ms=solved.timeout_ms)
        ended = solved.widget.locator("[data-finished]")
        expect(ended).to_have_attribute("data-verdict", verdict)
        expect(ended).to_contain_text(f"Training finished its {count} steps and failed: ")
        expect(ended).to_contain_text(blamed)
        solved.widget.get_by_label(switch).uncheck()
    steps.fill("1000")
    steps.dispatch_event("change")


@pytest.fixture(scope="module")
def newcomer(kept_profiles, site):
    """`newcomer()`: the microgpt page, opened afresh by a learner who wrote nothing."""
    yield from newcomer_at(kept_profiles, site.url + MICROGPT_PAGE, Microgpt)


def test_unpassed_tabs_are_named_and_the_reference_is_offered(newcomer, exercises):
    trainer = newcomer()
    labels = [exercises[f"local-{op}"].label for op in OPS]
    expect(trainer.widget).to_contain_text(
        "Not passed yet: " + ", ".join(labels) + ", on the Local gradients page."
    )
    expect(trainer.widget.get_by_label("reference code")).to_be_checked()  # none passed
    trainer.press("Step")
    trainer.wait_for(lambda t: t.step() == 1)
    expect(trainer.names).to_have_count(8, timeout=RUN_TIMEOUT_MS)


def test_the_starter_tuples_stop_training_at_step_1_with_links_to_their_tabs(newcomer, exercises):
    """Not six warnings and training on at a uniform guess's loss: one stop, said once, with a
    link to each tab on the Local gradients page (not the closures page)."""
    trainer = newcomer()
    trainer.widget.get_by_label("my code as it is").check()
    trainer.press("Train")
    trainer.rests("stopped")  # Python may still be loading: the state waits as long as a run
    alert = trainer.widget.get_by_role("alert")
    expect(alert).to_contain_text("Training stopped at step 1: no gradient reached any weight")
    expect(trainer.stats).to_have_text("Stopped at step 1.")  # not "Not trained yet."
    labels = [exercises[f"local-{op}"].label for op in OPS]
    expect(alert).to_contain_text("Still the starter tuples: " + ", ".join(labels))
    expect(trainer.widget.locator(".mg-notice:not([role])")).to_be_hidden()
    expect(trainer.widget.get_by_role("button", name="Train", exact=True)).to_be_enabled()
    alert.get_by_role("link", name=labels[1], exact=True).click()
    trainer.page.wait_for_url(re.compile(r"/local-gradients/#tab-local-mul$"))
    tab = trainer.page.get_by_role("tab", name=labels[1], exact=True)
    expect(tab).to_have_attribute("aria-selected", "true")
