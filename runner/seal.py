"""The runner's entry in the sealed process that grades one hand-in (runner/node.mjs): one
Python for the hand-in, its memory put back after every run, so that each run meets the
Python this module leaves ready and nothing an earlier run did.

A run's request is one line of JSON, handed over as text and read here, in that fresh memory:

    {"exercise": id, "bodies": {op: code}, "data": data}   # runner/observe.py's observe
    {"design": design, "bodies": {op: code}, "graphs": [...]}   # runner/fuzz.py's run_graphs

`data` is what grader/runner_data.py's `run_data` gives for that one exercise: its checks, and
the reference code of only the ops its checks need beside the learner's own.
"""

import gc
import json
import sys

from _pyodide._importhook import JsLoader  # what `import js` made: each holds a JsProxy

# every module a run may import, imported now: once the process is sealed no run reads the
# runner's files again (runner/node.mjs refuses every write to the file system, too)
from . import checker, engine, fuzz, observe  # noqa: F401
from .sandbox import JS_PACKAGES, PLAIN_FINDERS

BRIDGES = (*JS_PACKAGES, "_pyodide_core")  # the last: Pyodide's C half of them


def cut_javascript():
    """Drops every module of Pyodide's that reaches JavaScript, with every name in it, and the
    finders that make `import js` work, with theirs: what referred to a JavaScript object
    from Python, so that nothing here leads to one (tests/test_regrade_sealed.py walks every
    object to hold this). The calls from runner/node.mjs come in through Pyodide's C, not
    through these."""
    bridges = [name for name in sys.modules if name.partition(".")[0] in BRIDGES]
    finders = [finder for finder in sys.meta_path if finder not in PLAIN_FINDERS]
    loaders = [held for held in gc.get_referrers(JsLoader) if isinstance(held, JsLoader)]
    for held in [sys.modules.pop(name) for name in bridges] + finders + loaders:
        names = getattr(held, "__dict__", None)
        if isinstance(names, dict):  # not a class's (a finder may be one): nothing of ours
            names.clear()
    sys.meta_path[:] = [finder for finder in sys.meta_path if finder in PLAIN_FINDERS]
    sys.path[:] = [entry for entry in sys.path if entry.startswith("/")]
    gc.collect()


def run_json(request_json):
    """One run's report, as JSON text: the observation of an exercise, or a fuzz run's
    reports."""
    request = json.loads(request_json)
    if "graphs" in request:
        found = fuzz.run_graphs(request["design"], request["bodies"], request["graphs"])
    else:
        found = observe.observe(request["exercise"], request["bodies"], request["data"])
    return json.dumps(found)
