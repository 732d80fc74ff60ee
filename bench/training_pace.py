"""Training's figures: steps per second in Chromium (Pyodide, the page's runner) and in CPython,
with the same runner data, closures and default model; the time from Train to the first boundary
drawn; and the time to 95% training accuracy."""

import json
import time

from visits import pass_tabs

from grader.exercises import load_catalog
from grader.runner_data import runner_data
from runner import value_class
from training.worker import start

OPS = ("add", "mul", "relu")  # what training runs (training/session.py)
TIMEOUT_MS = 120_000
STEPS = 300  # a stretch long enough for steps per second, past the decay of the learning rate
# In the page: every change of the stats line, as [time, step, accuracy], from Train's click.
RECORD = """() => {
  const stats = document.querySelector("[data-training-widget] [data-step][data-accuracy]");
  const button = [...document.querySelectorAll("[data-training-widget] button")]
    .find((b) => b.textContent.trim() === "Train");
  window.__training = { clicked: null, changes: [] };
  const stamp = (event) => (window.__training.clicked = event.timeStamp);
  button.addEventListener("click", stamp, { capture: true, once: true });
  new MutationObserver(() => {
    const { clicked, changes } = window.__training;
    if (clicked === null) return;
    const { step, accuracy } = stats.dataset;
    changes.push([performance.now() - clicked, Number(step), Number(accuracy)]);
  }).observe(stats, { attributes: true, childList: true, characterData: true, subtree: true });
}"""


def in_browser(context, widget_url, training_url):
    """A learner passes the tabs training runs, opens the training page and presses Train:
    `{first_boundary_ms, to_95_ms, steps_per_s}`."""
    catalog = load_catalog()
    page = context.new_page()
    page.goto(widget_url)
    page.wait_for_function(
        "performance.getEntriesByName('python-ready').length", timeout=TIMEOUT_MS
    )
    pass_tabs(page, {catalog[op].label: catalog[op].solutions[op] for op in OPS}, TIMEOUT_MS)
    page.goto(training_url)
    widget = page.locator("[data-training-widget]")
    widget.get_by_role("button", name="Train", exact=True).wait_for()  # mounted
    page.evaluate(RECORD)
    widget.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_function(
        f"window.__training.changes.some(([, step]) => step >= {STEPS})", timeout=TIMEOUT_MS
    )
    widget.get_by_role("button", name="Pause", exact=True).click()
    changes = page.evaluate("window.__training.changes")
    page.close()
    stepping = [change for change in changes if change[1] > 0]
    (t0, s0, _), (t1, s1, _) = stepping[0], stepping[-1]
    return {
        "first_boundary_ms": changes[0][0],
        "to_95_ms": next((t for t, _, accuracy in changes if accuracy >= 0.95), None),
        "steps_per_s": (s1 - s0) / (t1 - t0) * 1000,
    }


def in_cpython():
    """Steps per second of the same session in CPython, through the runner's JSON interface."""
    known = runner_data(load_catalog())
    value_class.data = lambda: known  # where the worker reads runner.zip's data.json
    training = start("{}", "{}")
    assert "error" not in json.loads(training.started_json), training.started_json
    training.steps_json(1, 10_000, False)  # as in the browser, the first step is not counted
    begun = time.perf_counter()
    taken = 0
    while taken < STEPS:
        taken += len(json.loads(training.steps_json(STEPS - taken, 10_000, False))["losses"])
    return {"steps_per_s": taken / (time.perf_counter() - begun)}
