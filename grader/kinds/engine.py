"""The engine kind, "find the bug": the learner's one slot is a whole engine with one planted
bug (grader/engine.py builds it, reads its keys and judges its runs)."""

from ..engine import engine_exercise, engine_spec, judge_engine
from ..scaffold import labels
from .base import Kind
from .op import op_tabs, ops_spec, runner_entry

BUG_KEYS = ("bug", "train", "breaks")


def _widget(exercise, catalog):
    """Every name is the learner's own, and its results show graphs of their own; its editor
    folds the op tabs' finished closures as spoilers until each tab has passed
    (widget/src/editor/folds.js): each tab's id and version, and its method."""
    methods = labels(exercise.design)
    tabs = op_tabs(catalog, exercise.design)
    folds = [{"id": tab.id, "version": tab.version, "label": methods[tab.ops[0]]} for tab in tabs]
    return {"graphs": "", "folds": folds}


ENGINE = Kind(
    name="engine",
    # `bug` plants it in the course's engine, `ops` are those its random graphs draw, `train`
    # runs its training loop, `breaks` names the training page's Break-it switch that plants
    # the same bug
    keys=frozenset({"kind", "ops", "label", "prompt", "hints", "why", "checks", *BUG_KEYS}),
    required=("kind", "ops", "label", "prompt", "checks", "bug"),
    spec=lambda path, spec: engine_spec(ops_spec(path, spec, spec["ops"]), path),
    make=engine_exercise,
    judge=lambda exercise, bodies, observation, exercises, told: judge_engine(
        exercise, observation, exercises
    ),
    runner=runner_entry,
    widget=_widget,
    starter=("the engine as shipped", ()),  # its starting code is the engine with its bug
    references="all",  # it compares the learner's class with the whole reference class
    own_key=lambda exercise: f"engine/{exercise.id}",  # one whole engine, its own per tab
    rungs=False,  # it names the bug's place, not a formula: its words are the same on every rung
    solution_from="exercises/_engine/",
)
