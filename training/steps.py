"""The step loop both trainers' workers share (training/worker.py, microgpt/worker.py): a few
steps of a session in one call, so that the page can show them, pause and stop between calls;
and what their `start` gives the runner to hold (`Started`).

A session has `count` (the steps taken), `step()` (one step; its loss), `healthy()` (whether
every parameter and gradient is still a finite number) and `stalled()` (whether the last
step's backward pass reached no parameter at all).
"""

from dataclasses import dataclass, field
from time import perf_counter

from runner.errors import Slots
from runner.numbers import finite


@dataclass(frozen=True)
class Started:
    """A session as the runner holds it (widget/src/worker/main.js): the answer to starting it
    (`started_json`), the session (None when the learner's code did not compile) and the slots
    of its class's code. Each worker's kind adds the calls it answers."""

    started_json: str
    session: object = None
    slots: Slots | None = None


@dataclass
class Ran:
    """What one call's steps did, for the worker to answer with."""

    losses: list = field(default_factory=list)  # each step's; None where not a finite number
    # where a step left a number not finite, {"step": n}; where it reached no parameter,
    # {"step": n, "stalled": True} (nothing can learn: said rather than stepping on)
    problem: dict | None = None
    error: dict | None = None  # an exception in the learner's code, at their line
    exception: BaseException | None = None  # that exception (or one in the class's own code)
    finished: str | None = None  # why training should stop by itself, from `finished()`


def steps(session, count, budget_ms, slots, *, cap, each=None, finished=None):
    """Takes up to `count` steps (at most `cap`), ending early after `budget_ms`, at a step
    that leaves a number not finite or reaches no parameter, once `finished()` says why
    training should stop by itself, or at an exception, described at the learner's line in
    `slots`. `each()` runs after every step. Learner code runs guarded (runner/sandbox.py)."""
    from runner.errors import describe_exception
    from runner.sandbox import CappedOutput, guarded

    ran = Ran()
    until = perf_counter() + budget_ms / 1000
    with guarded(CappedOutput()):
        try:
            for _ in range(min(int(count), cap)):
                if _step(session, ran, each, finished) or perf_counter() > until:
                    break
        except BaseException as raised:  # noqa: BLE001 - learner code may raise anything at all
            ran.exception, ran.error = raised, describe_exception(raised, slots)
    return ran


def _step(session, ran, each, finished):
    """One step, recorded in `ran`; whether it ends the call."""
    loss = session.step()
    ran.losses.append(loss if finite(loss) else None)
    if each:
        each()
    if not finite(loss) or not session.healthy():
        ran.problem = {"step": session.count}
    elif session.stalled():
        ran.problem = {"step": session.count, "stalled": True}
    elif finished:
        ran.finished = finished()
    return bool(ran.problem or ran.finished)
