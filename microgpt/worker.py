"""microgpt in the browser's runner: `start` makes a session, which the runner holds
(widget/src/worker/main.js) and asks for steps and samples; JSON in and out."""

import json
import math

from runner.errors import describe_exception, describe_syntax_error
from runner.sandbox import CappedOutput, guarded
from training.steps import Started, steps

from .culprit import disagreements
from .session import Config, Session

STEPS_PER_CALL = 100  # a cap on one call; the page asks for a few at a time
# "break it": a wrong tuple in place of the learner's, each a classic slip of its tab
WRONG = {
    "wrong_log": ("log", "(x,)"),  # its input, not its local gradient
    "wrong_exp": ("exp", "(x,)"),  # its input, not its local gradient
}


def start(bodies_json, config_json, names_text):
    """Starts a session on the local-gradients Value class with the learner's `bodies` ({op:
    tuple}; the reference for any op not given), a break-it switch putting a wrong tuple in
    place, training on `names_text` (one name a line: the page fetches names.txt): a
    `Training`, whose `started_json` holds the tuples a nudge disagrees with as JSON, or
    `{"error": ...}`."""
    from runner.assembly import their_bodies
    from runner.value_class import data, make_class

    design = data()["designs"]["local_grads"]
    given = json.loads(config_json)
    bodies = their_bodies(design, json.loads(bodies_json))
    theirs = bodies | dict(wrong for key, wrong in WRONG.items() if given.get(key))
    try:
        value_class, slots = make_class(design, design["references"] | theirs, theirs)
    except SyntaxError as error:
        return Training(json.dumps({"error": describe_syntax_error(error, error.slots)}))
    settings = {key: value for key, value in given.items() if key not in WRONG}
    session = Session(value_class, Config.of(settings), names_text.split())
    started = {"disagree": _measured(session)}
    return Training(json.dumps(started, allow_nan=False), session, slots)


def _measured(session):
    """What `disagreements` finds, as JSON can carry it; an error in the learner's code while
    measuring is left for training to report at its line."""
    with guarded(CappedOutput()):
        try:
            found = disagreements(session)
        except Exception:  # noqa: BLE001 - learner code may raise anything at all
            return []
    for wrong in found:
        for key in ("inputs", "given", "measured"):
            wrong[key] = _json_safe(wrong[key])
    return found


def _json_safe(value):
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    return value if not isinstance(value, float) or math.isfinite(value) else repr(value)


class Training(Started):
    """A microgpt session as the runner holds it (`Started`), asked for steps and samples."""

    def steps_json(self, count, budget_ms):
        """Takes up to `count` steps, stopping early after `budget_ms`; returns their losses
        and the learning rate. A step that leaves a gradient, a weight or the loss not a finite
        number, or whose arithmetic fails in the class's own code (log of 0: the problem's
        `raised`), ends the call with a problem naming the ops whose tuples disagree with a
        nudge (none: the training loop is to blame), and so does a step whose backward pass
        reached no parameter (`stalled`: the starter tuples); an exception in the learner's code
        ends it too, at the learner's line."""
        session = self.session
        smoothed = []
        ran = steps(
            session,
            count,
            budget_ms,
            self.slots,
            cap=STEPS_PER_CALL,
            each=lambda: smoothed.append(session.smoothed()),
        )
        problem, error = ran.problem, ran.error
        if problem:
            problem["raised"] = None
        elif isinstance(ran.exception, (ArithmeticError, ValueError)) and error["slot"] is None:
            problem, error = {"step": session.count + 1, "raised": error["summary"]}, None
        if problem:
            problem["disagree"] = _measured(session)
        found = {
            "step": session.count,
            "losses": ran.losses,
            "smoothed": smoothed,
            "rate": session.adam.rate(),
            "problem": problem,
            "error": error,
        }
        return json.dumps(found, allow_nan=False)

    def sample_json(self, count, temperature):
        """`count` names sampled at `temperature` from the model as trained so far."""
        names, error = [], None
        with guarded(CappedOutput()):
            try:
                count, temperature = min(int(count), 20), min(max(float(temperature), 0.1), 2.0)
                names = self.session.sample(count, temperature)
            except BaseException as raised:  # noqa: BLE001
                error = describe_exception(raised, self.slots)
        return json.dumps({"names": names, "error": error})
