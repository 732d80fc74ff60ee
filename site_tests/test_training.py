"""The training widget (docs/training.md): a learner trains micrograd's network on the two moons
with the closures they wrote on the exercise page.

Testing contract: the root has `data-training-widget`; a button named "Train" starts it; an
element with `data-step` and `data-accuracy` (0 to 1) follows it; the root's `data-state` is
the trainer's (site_tests/trainer.py).
"""

import re

import pytest
from conftest import assert_clean, learner_at
from learner import RUN_TIMEOUT_MS, Learner, announced_roles
from playwright.sync_api import expect
from trainer import Trainer, newcomer_at

TRAINING_PAGE = "training/"
OPS = ("add", "mul", "relu")  # what the network's training runs (training/session.py)


class Moons(Trainer):
    def __init__(self, page):
        super().__init__(page, "data-training-widget", "data-accuracy")

    def accuracy(self):
        return float(self.stats.get_attribute("data-accuracy"))

    def train_until(self, condition):
        self.press("Train")
        self.wait_for(condition)
        self.pause()

    def message(self):
        return self.widget.get_by_role("alert")


@pytest.fixture(scope="module")
def solved(kept_profiles, site, widget_page, exercises):
    """A learner who passed the tabs of the ops training runs, then opened the training page."""
    learner, watch, close = learner_at(kept_profiles, site.url + widget_page.lstrip("/"))
    learner.open()
    for op in OPS:
        assert learner.solve(exercises[op].label, exercises[op].solutions[op]) == "pass"
    learner.page.goto(site.url + TRAINING_PAGE)
    yield Moons(learner.page)
    close()
    assert_clean(watch)


def test_a_learner_who_passed_trains_with_their_own_closures_to_95_percent(solved):
    expect(solved.widget).to_contain_text("Training with your own")
    assert solved.step() == 0
    solved.train_until(lambda t: t.accuracy() >= 0.95)
    assert solved.step() > 0
    # training is not graded: the page started runners (the session's, a spare) and no judge
    roles = announced_roles(solved.page)
    assert roles and set(roles) == {"runner"}, roles


def test_pause_stops_the_steps_and_step_takes_one(solved):
    """Paused, the trainer rests (`data-state`): the chunk under way has been shown and nothing
    more is asked, so the step the pause says is the step the page is at; Step takes one."""
    solved.press("Reset")
    solved.rests("idle")
    solved.train_until(lambda t: t.step() >= 5)
    paused = solved.step()
    expect(solved.stats).to_have_text(re.compile(rf"^Paused at step {paused} · accuracy"))
    assert solved.step_once() == paused + 1
    expect(solved.stats).to_have_text(re.compile(rf"^Step {paused + 1} · accuracy"))


def test_equals_in_add_makes_the_network_lag_behind(solved):
    """The "break it" switch restarts training with `=` for `+=` in the learner's __add__: the
    biases follow one point of each batch, and the network is still short of 95% where the
    learner's own code has long passed it (docs/training.md); once its loss stops falling, the
    points it still gets wrong are counted and the switch is named."""
    solved.break_it("instead of")
    assert solved.step() == 0
    solved.train_until(lambda t: t.step() >= 45)
    assert solved.accuracy() < 0.95
    ended = ends(solved, "fit")
    expect(ended).to_contain_text("the loss has stopped falling")
    expect(ended).to_contain_text(re.compile(r"\d of the 100 points are still on the wrong side"))
    expect(ended).to_contain_text("The “break it” switch puts = in place of += in __add__")
    solved.widget.get_by_label("instead of").uncheck()


def ends(trainer, verdict):
    """Trains on until training stops by itself, its verdict `verdict`: the words that say so."""
    trainer.press("Train")
    trainer.rests("finished", timeout_ms=3 * RUN_TIMEOUT_MS)
    ended = trainer.widget.locator("[data-finished]")
    expect(ended).to_have_attribute("data-verdict", verdict)
    return ended


def test_a_learning_rate_far_too_high_shows_on_the_plots_and_stops_the_run(solved):
    solved.break_it("times too high")
    solved.train_until(lambda t: t.step() >= 10)
    assert solved.accuracy() <= 0.6
    curves = solved.widget.get_by_role("img", name="Loss per step")
    blown_up = re.compile(r"the loss went from [\d.]+ to \d{4,}")
    expect(curves).to_have_attribute("aria-label", blown_up)
    ended = ends(solved, "blew-up")  # two windows of 50 steps, not the step limit of 500
    expect(ended).to_have_attribute("data-finished", "failed")
    expect(ended).to_contain_text(
        re.compile(r"^Training stopped at step 1\d\d and failed: the loss blew up")
    )
    expect(ended).to_contain_text("switch makes the learning rate 40 times the one set")
    solved.widget.get_by_label("times too high").uncheck()


def test_without_zero_grad_the_loss_rises_and_the_run_says_it_failed(solved):
    """Not "the loss has stopped falling" at a coin toss's accuracy: the rise, and the switch."""
    solved.break_it("Skip")
    ended = ends(solved, "rose")
    expect(ended).to_contain_text(re.compile(r"and failed: the loss rose from [\d.]+ to \d\d"))
    expect(ended).to_contain_text("The “break it” switch “Skip zero_grad()” is on")
    expect(ended).not_to_contain_text("stopped falling")
    solved.widget.get_by_label("Skip").uncheck()


@pytest.fixture
def unsolved(fresh_page, site, widget_page):
    """A learner who wrote `bodies` ({tab label: code}) without passing, then opened the
    training page (conftest.py `fresh_page`)."""

    def open_with(bodies):
        learner = Learner(fresh_page(), site.url + widget_page.lstrip("/")).open()
        for label, code in bodies.items():
            learner.open_tab(label)
            learner.write(code)
        learner.page.goto(site.url + TRAINING_PAGE)
        return Moons(learner.page)

    return open_with


@pytest.fixture(scope="module")
def newcomer(kept_profiles, site):
    """`newcomer()`: the training page, opened afresh by a learner who wrote nothing."""
    yield from newcomer_at(kept_profiles, site.url + TRAINING_PAGE, Moons)


MOONS = r"^The two moons, 100 points"  # the boundary plot's label, as the widget words it
INKED = """canvas => {
  const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  return pixels.filter((value, i) => i % 4 === 3 && value > 0).length;
}"""


def test_the_moons_are_drawn_before_training_and_another_seeds_once_it_starts(newcomer):
    trainer = newcomer()
    plot = trainer.widget.locator("canvas.mg-train__boundary")
    expect(plot).to_have_attribute(
        "aria-label", re.compile(r"^The two moons, 100 points.*No model yet")
    )
    assert plot.evaluate(INKED) > 0 and trainer.step() == 0
    trainer.widget.locator("details summary").click()
    seed = trainer.widget.get_by_label("Seed")
    seed.fill("2")
    seed.dispatch_event("change")  # the page has the default seed's points only
    expect(plot).to_have_attribute("aria-label", "No model yet.")
    assert plot.evaluate(INKED) == 0
    trainer.widget.get_by_label("reference code").check()
    trainer.press("Step")
    expect(plot).to_have_attribute(
        "aria-label", re.compile(r"^The two moons, 100 points .* regions")
    )
    assert plot.evaluate(INKED) > 0


def test_unpassed_tabs_are_named_and_the_reference_is_offered(newcomer, exercises):
    trainer = newcomer()
    labels = [exercises[op].label for op in OPS]
    expect(trainer.widget).to_contain_text(
        "Not passed yet: " + ", ".join(labels) + ", on the Write the closures page."
    )
    # nothing passed: the reference is chosen until the learner chooses otherwise
    expect(trainer.widget.get_by_label("reference code")).to_be_checked()
    trainer.widget.get_by_label("my code as it is").check()
    trainer.press("Train")  # the starter closures move no parameter: training says so and stops
    trainer.rests("stopped")
    expect(trainer.message()).to_contain_text("step 1: no gradient reached any weight or bias")
    expect(trainer.message()).to_contain_text("Still the starter code: " + ", ".join(labels))
    expect(trainer.widget.get_by_role("button", name="Train", exact=True)).to_be_enabled()
    trainer.widget.get_by_label("reference code").check()
    assert trainer.step() == 0
    trainer.train_until(lambda t: t.accuracy() >= 0.95)


def test_a_starter_closure_named_in_a_message_links_to_its_tab(newcomer, exercises):
    trainer = newcomer()
    trainer.widget.get_by_label("my code as it is").check()
    trainer.press("Train")
    link = trainer.message().get_by_role("link", name=exercises["mul"].label)
    link.click()
    trainer.page.wait_for_url(re.compile(r"/exercises/#tab-mul$"))
    tab = trainer.page.get_by_role("tab", name=exercises["mul"].label, exact=True)
    expect(tab).to_have_attribute("aria-selected", "true")
    expect(tab).to_be_in_viewport()


def test_training_stops_by_itself_says_why_and_goes_on(newcomer):
    """The reference stops once its loss stops falling (training/session.py), long before the
    learner would; Train goes on from the step it stopped at."""
    trainer = newcomer()
    trainer.press("Train")
    finished = trainer.widget.locator("[data-finished]")
    expect(finished).to_have_attribute("data-finished", "converged", timeout=3 * RUN_TIMEOUT_MS)
    trainer.rests("finished")
    expect(finished).to_contain_text("Training stopped by itself at step")
    expect(finished).to_contain_text("the loss has stopped falling")
    train = trainer.widget.get_by_role("button", name="Train", exact=True)
    expect(train).to_be_enabled()
    stopped = trainer.step()
    assert stopped >= 150  # not before the learning rate has done decaying
    trainer.press("Train")
    trainer.wait_for(lambda t: t.step() > stopped + 40)
    trainer.press("Pause")
    expect(finished).to_be_hidden()


def test_the_boundary_plots_legend_says_which_mark_is_which_label(newcomer):
    trainer = newcomer()
    caption = trainer.widget.locator("figure").filter(has=trainer.page.locator("canvas"))
    expect(caption.locator(".mg-train__legend")).to_have_text(
        re.compile(r"labelled \+1.*labelled −1")
    )
    plot = trainer.widget.locator("canvas.mg-train__boundary")
    expect(plot).to_have_attribute("aria-label", re.compile(r"crosses labelled \+1, circles −1"))


def test_a_closure_that_makes_nan_stops_training_naming_it(unsolved, exercises):
    right = {exercises[op].label: exercises[op].solutions[op] for op in ("add", "mul")}
    trainer = unsolved(right | {"relu": "self.grad += float('nan')"})
    trainer.widget.get_by_label("my code as it is").check()
    trainer.press("Train")
    expect(trainer.message()).to_contain_text("step 1")
    expect(trainer.message()).to_contain_text("relu closure")
    expect(trainer.message()).to_contain_text("the relu tab on the Write the closures page")
    link = trainer.message().get_by_role("link", name="relu", exact=True)
    expect(link).to_have_attribute("href", re.compile(r"/exercises/#tab-relu$"))
    # the plot keeps what was drawn
    expect(trainer.widget.get_by_role("img", name="The two moons")).to_be_visible()
    expect(trainer.widget.get_by_role("button", name="Train", exact=True)).to_be_enabled()


def test_a_closure_that_never_returns_is_stopped_by_the_time_limit(unsolved):
    trainer = unsolved({"__add__": "while True:\n    pass"})
    trainer.widget.get_by_label("my code as it is").check()
    trainer.press("Train")
    expect(trainer.message()).to_contain_text("time limit", timeout=RUN_TIMEOUT_MS)
    expect(trainer.widget.get_by_role("button", name="Train", exact=True)).to_be_enabled()


@pytest.mark.parametrize(("switch", "tab"), [("instead of", "bug 1"), ("zero_grad", "bug 6")])
def test_a_break_it_switch_links_to_the_engine_with_the_same_bug(newcomer, switch, tab):
    """Beside the switches that plant a bug find-the-bug has (course/widget_data.py
    `find_the_bug`), a link opens that tab of the find-the-bug page."""
    page = newcomer().page
    page.locator("[data-training-widget] summary").click()
    beside = page.locator(".mg-train__switch").filter(has_text=switch)
    beside.get_by_role("link", name="find this bug in an engine").click()
    expect(page.get_by_role("tab", name=tab, exact=True)).to_have_attribute("aria-selected", "true")
    assert page.url.endswith("find-the-bug/#tab-" + tab.replace("bug ", "find-bug-"))
