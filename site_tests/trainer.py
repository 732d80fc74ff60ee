"""A training widget as a learner uses it (the moons' and microgpt's share their testing
contract, widget/src/training/view.js): its buttons, its line of figures (`data-step` and the
widget's own figure) and the state its trainer announces (`data-state` on its root:
widget/src/training/trainer.js)."""

from conftest import assert_clean, learner_at
from learner import RUN_TIMEOUT_MS
from playwright.sync_api import expect

# what the course keeps of a learner's code and progress (widget/src/shared/storage.js)
KEPT_WORK = "Object.keys(localStorage).filter((key) => /:(code|progress):/.test(key))"


def newcomer_at(browser, url, trainer):
    """A learner who wrote nothing and passed nothing, for a module's fixture to yield from:
    `open()` opens the training page at `url` afresh (a new document: its trainer starts over)
    as a `trainer(page)`, once it has checked that the learner still has no work kept. One
    context for the module's tests, not one each: a trainer keeps nothing in the browser's
    storage (widget/src/training/, widget/src/microgpt/). Its browser keeps its profile, so
    each page after the first starts from the cached files and the saved memory of Python."""
    learner, watch, close = learner_at(browser, url)

    def open_page():
        learner.page.goto(url)
        assert learner.page.evaluate(KEPT_WORK) == []
        return trainer(learner.page)

    yield open_page
    close()
    assert_clean(watch)


class Trainer:
    def __init__(self, page, root, figure, timeout_ms=RUN_TIMEOUT_MS):
        self.page = page
        self.widget = page.locator(f"[{root}]")
        self.stats = self.widget.locator(f"[data-step][{figure}]")
        self.figure, self.timeout_ms = figure, timeout_ms

    def press(self, name):
        self.widget.get_by_role("button", name=name, exact=True).click()

    def step(self):
        return int(self.stats.get_attribute("data-step"))

    def wait_for(self, condition, timeout_ms=None):
        """Polls the page until `condition(self)` holds (the steps come in chunks)."""
        waited, most = 0, timeout_ms or self.timeout_ms
        while not condition(self):
            figure = self.stats.get_attribute(self.figure)
            assert waited < most, f"still at step {self.step()}, {self.figure} {figure}"
            self.page.wait_for_timeout(100)
            waited += 100

    def rests(self, state, timeout_ms=RUN_TIMEOUT_MS):
        """Waits until the trainer rests in `state` ("paused", "idle", "finished", "stopped"):
        nothing is under way, so no step can come until the learner presses a button."""
        expect(self.widget).to_have_attribute("data-state", state, timeout=timeout_ms)

    def pause(self):
        """Pause, then wait until the chunk under way has been shown and training rests."""
        self.press("Pause")
        self.rests("paused")
        expect(self.widget.get_by_role("button", name="Train", exact=True)).to_be_enabled()

    def step_once(self):
        """Step, then wait until that step has been shown; the step it rests at."""
        before = self.step()
        self.press("Step")
        self.wait_for(lambda t: t.step() != before)
        self.rests("idle")
        expect(self.widget.get_by_role("button", name="Step", exact=True)).to_be_enabled()
        return self.step()

    def break_it(self, label):
        settings = self.widget.locator("details")
        if settings.get_attribute("open") is None:
            settings.locator("summary").click()
        self.widget.get_by_label(label).check()
