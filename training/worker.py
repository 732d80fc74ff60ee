"""A training session in the browser's runner: `start` makes one, which the runner holds
(widget/src/worker/main.js) and asks for steps; JSON in and out."""

import json
import re

from runner.errors import describe_syntax_error

from .culprit import culprit
from .session import Config, Session
from .steps import Started, steps

STEPS_PER_CALL = 200  # a cap on one call; the page asks for a few at a time


def broken(bodies):
    """The learner's bodies with `+=` written `=` in `__add__` ("break it")."""
    return dict(bodies, add=re.sub(r"\+=", "=", bodies["add"]))


def start(bodies_json, config_json):
    """Starts a session on the closures design's Value class with the learner's `bodies`
    ({op: code}; the reference for any op not given): a `Training`, whose `started_json` holds
    the data, the plot's extent and the untrained model's accuracy and boundary as JSON, or
    `{"error": ...}`."""
    from runner.assembly import their_bodies
    from runner.value_class import data, make_class

    design = data()["designs"]["closures"]
    bodies = their_bodies(design, json.loads(bodies_json))
    config = Config.of(json.loads(config_json))
    theirs = broken(design["references"] | bodies) if config.assign_add else bodies
    if config.assign_add:
        theirs = {op: theirs[op] for op in [*bodies, "add"]}
    try:
        value_class, slots = make_class(design, design["references"] | theirs, theirs)
    except SyntaxError as error:
        return Training(json.dumps({"error": describe_syntax_error(error, error.slots)}))
    session = Session(value_class, config)
    started = {
        "points": session.points,
        "labels": session.labels,
        "extent": session.extent(),
        "accuracy": session.accuracy(),
        "boundary": session.boundary(),
    }
    return Training(json.dumps(started), session, slots)


class Training(Started):
    """A moons session as the runner holds it (`Started`), asked for steps."""

    def steps_json(self, count, budget_ms, boundary, go_on=False):
        """Takes up to `count` steps, stopping early after `budget_ms`; returns their losses,
        the accuracy after them and, when asked, the boundary, as JSON. A step whose loss or
        weights are not finite ends the call, naming the op whose closure first made a grad so;
        an exception in the learner's code ends it too, at the learner's line. Once training
        should stop by itself (`Session.finished`), the call ends saying why (`finished`);
        `go_on` trains on from there."""
        session = self.session
        if go_on:
            session.go_on()
        ran = steps(
            session, count, budget_ms, self.slots, cap=STEPS_PER_CALL, finished=session.finished
        )
        problem = ran.problem
        if problem:
            problem["op"] = None if problem.get("stalled") else culprit(session.graph)
        found = {
            "step": session.count,
            "losses": ran.losses,
            "accuracy": session.accuracy(),
            "problem": problem,
            "error": ran.error,
            "finished": ran.finished,
        }
        if boundary or problem or ran.error:
            found["boundary"] = session.boundary()
        return json.dumps(found, allow_nan=False)
