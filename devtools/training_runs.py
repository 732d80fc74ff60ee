"""Records runs of both trainers, with the reference code and each "break it" switch as the
widgets set it, for the Node tests of how a run is judged (widget/src/training/verdict.js):
`python -m devtools.training_runs` writes tests/widget/fixtures/training-runs.json. A few
minutes; tests/test_training.py and tests/test_microgpt.py check its first steps still match.
"""

import json
from pathlib import Path

FIXTURE = Path(__file__).parent.parent / "tests" / "widget" / "fixtures" / "training-runs.json"
# name: (trainer, config), the config as the widget sends it with that switch on
RUNS = {
    "microgpt": ("microgpt", {"steps": 30}),
    "microgpt wrong_log": ("microgpt", {"steps": 30, "wrong_log": True}),
    "microgpt wrong_exp": ("microgpt", {"steps": 30, "wrong_exp": True}),
    "microgpt rate_too_high": ("microgpt", {"steps": 30, "learning_rate": 0.1}),
    "microgpt no_zero_grad": ("microgpt", {"steps": 100, "zero_grad": False}),
    "moons": ("moons", {}),
    "moons no_zero_grad": ("moons", {"zero_grad": False}),
    "moons assign_add": ("moons", {"assign_add": True}),
    "moons rate_too_high": ("moons", {"learning_rate": 0.5 * 40}),
}
MOONS_STEPS = 500  # the step limit: a run that never settles stops there


def short(number):
    return None if number is None else float(f"{number:.4g}")


def moons(config, steps=MOONS_STEPS):
    """A moons run until it stops by itself (or `steps`): each step's loss, the accuracy after
    the last, the labels' share of +1, and why it stopped."""
    from training.worker import start

    training = start("{}", json.dumps(config))
    losses = []
    while len(losses) < steps:
        answer = json.loads(training.steps_json(min(40, steps - len(losses)), 100_000, False))
        losses += answer["losses"]
        if answer["finished"] or answer["problem"] or answer["error"]:
            break
    labels = json.loads(training.started_json)["labels"]
    return {
        "losses": [short(loss) for loss in losses],
        "accuracy": answer["accuracy"],
        "labels": labels,
        "finished": answer["finished"],
    }


def microgpt(config):
    """A microgpt run of its `steps`: each step's loss and smoothed loss."""
    from microgpt.names import load
    from microgpt.worker import start

    training = start("{}", json.dumps(config), "\n".join(load()))
    losses, smoothed = [], []
    while len(losses) < config["steps"]:
        answer = json.loads(training.steps_json(config["steps"] - len(losses), 600_000))
        losses += answer["losses"]
        smoothed += answer["smoothed"]
    return {"losses": [short(x) for x in losses], "smoothed": [short(x) for x in smoothed]}


def main():
    from grader.exercises import load_catalog
    from grader.runner_data import runner_data
    from runner import value_class

    known = runner_data(load_catalog())
    value_class.data = lambda: known  # where the workers read runner.zip's data.json
    found = {}
    for name, (trainer, config) in RUNS.items():
        run = moons(config) if trainer == "moons" else microgpt(config)
        found[name] = {"trainer": trainer, "config": config} | run
        print(name, len(run["losses"]), "steps")
    FIXTURE.write_text(json.dumps(found, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
