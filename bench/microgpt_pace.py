"""microgpt's figures: a learner who passed the six local-gradient tabs presses Train on the
microgpt page; the time to the first names and to the last step, steps per second, the smoothed
loss at the end, the main thread's longest task while training and the page's memory, against
the same session's steps per second in CPython through the same JSON interface."""

import json
import time

from visits import PROBE, blocking, long_tasks, pass_tabs

from grader.exercises import load_catalog
from grader.runner_data import runner_data
from microgpt.names import load
from microgpt.session import Config
from microgpt.worker import start
from runner import value_class

OPS = ("add", "mul", "pow", "log", "exp", "relu")  # microgpt/culprit.py's OPS
STEPS = Config().steps  # the default run: 1,000 steps
CPYTHON_STEPS = 300
TIMEOUT_MS = 600_000
# In the page, from Train's click: each change of the stats line as [time, step, smoothed loss],
# and the time the first names were shown.
RECORD = """() => {
  const widget = document.querySelector("[data-microgpt-widget]");
  const stats = widget.querySelector("[data-step][data-loss]");
  const buttons = [...widget.querySelectorAll("button")];
  const train = buttons.find((b) => b.textContent.trim() === "Train");
  const record = (window.__gpt = { clicked: null, changes: [], names: null });
  const stamp = (event) => (record.clicked = event.timeStamp);
  train.addEventListener("click", stamp, { capture: true, once: true });
  new MutationObserver(() => {
    if (record.clicked === null) return;
    const { step, loss } = stats.dataset;
    record.changes.push([performance.now() - record.clicked, Number(step), Number(loss)]);
    if (record.names === null && widget.querySelector("[data-sample]"))
      record.names = performance.now() - record.clicked;
  }).observe(widget, { attributes: true, childList: true, characterData: true, subtree: true });
}"""


def in_browser(context, local_url, microgpt_url):
    """`{first_names_ms, total_ms, steps_per_s, final_loss, longest_task_ms, memory}`."""
    catalog = load_catalog()
    page = context.new_page()
    page.add_init_script(path=PROBE)
    page.goto(local_url)
    page.wait_for_function("__bench.ready()", timeout=TIMEOUT_MS)
    # each passed, so microgpt trains with the learner's own tuples
    tuples = {catalog[f"local-{op}"].label: catalog[f"local-{op}"].solutions[op] for op in OPS}
    pass_tabs(page, tuples, TIMEOUT_MS)
    page.goto(microgpt_url)
    gpt = page.locator("[data-microgpt-widget]")
    gpt.get_by_role("button", name="Train", exact=True).wait_for()  # mounted
    page.evaluate(RECORD)
    since = page.evaluate("performance.now()")
    gpt.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_function(
        f"window.__gpt.changes.some(([, step]) => step >= {STEPS})", timeout=TIMEOUT_MS
    )
    record = page.evaluate("window.__gpt")
    memory = page.evaluate("__bench.memory()")
    busy = blocking(long_tasks(page), since=since)
    page.close()
    stepping = [change for change in record["changes"] if change[1] > 0]
    (t0, s0, _), (t1, s1, loss) = stepping[0], stepping[-1]
    return {
        "first_names_ms": record["names"],
        "total_ms": t1,
        "steps_per_s": (s1 - s0) / (t1 - t0) * 1000,
        "final_loss": loss,
        "longest_task_ms": busy["longest_task_ms"],
        "memory": memory,
    }


def in_cpython():
    """Steps per second of the same session in CPython, through the runner's JSON interface."""
    known = runner_data(load_catalog())
    value_class.data = lambda: known  # where the worker reads runner.zip's data.json
    training = start("{}", "{}", "\n".join(load()))
    assert "error" not in json.loads(training.started_json), training.started_json
    training.steps_json(1, 60_000)  # as in the browser, the first step is not counted
    begun = time.perf_counter()
    taken = 0
    while taken < CPYTHON_STEPS:
        taken += len(json.loads(training.steps_json(CPYTHON_STEPS - taken, 60_000))["losses"])
    return {"steps_per_s": taken / (time.perf_counter() - begun)}
