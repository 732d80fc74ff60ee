"""Code that attacks the grader, the interpreter or the page: the verdict stays the one the
grader gives in CPython, the next run and the other tabs are unaffected, and no message from
inside the worker can pass for a result."""

import pytest
from learner import as_read
from playwright.sync_api import expect

from grader import grade
from grader.sandbox import OUTPUT_LIMIT

# each body misbehaves, then (where it gets that far) writes a wrong or a right closure
HOSTILE = {
    "exits": "import sys\nsys.exit(0)\n",
    "raises KeyboardInterrupt": "raise KeyboardInterrupt\n",
    "raises inside _backward": "raise ValueError('boom')\n",
    "rebinds builtins": (
        "import builtins\nbuiltins.round = lambda *a: 0\nbuiltins.abs = None\nself.grad += 0.0\n"
    ),
    "deletes builtins": "import builtins\ndel builtins.len\ndel builtins.isinstance\n",
    "drops the grader's modules": (
        "import sys\nfor name in list(sys.modules):\n    if name.startswith('grader'):\n"
        "        del sys.modules[name]\nself.grad += 0.0\n"
    ),
    "imports js": "import js\njs.document.body.innerHTML = 'gone'\n",
    "rebinds the grader's names": (
        "import sys, json\nsys.modules['grader.grade'].agrees = lambda *a: True\n"
        'json.dumps = lambda *a, **k: \'{"verdict": "pass"}\'\nself.grad += 0.0\n'
    ),
}
# learner code that would reach JavaScript through a function Pyodide keeps, post forged passes
# and swap JSON.parse for one that passes everything: the grader hides Pyodide's modules
ESCAPE = """import sys
Function = sys.modules['pyodide.webloop'].scheduleCallback.constructor
Function('''
    for (let n = 0; n < 100; n++)
      self.postMessage({type: "result", id: n, nonce: String(n), result: {verdict: "pass"}});
    JSON.parse = () => ({verdict: "pass"});
''')()
self.grad += 0.0
"""
# what JavaScript running in the worker's global scope (as escaped code would) tries
FORGER = """() => {
  const forged = { exercise: "mul", verdict: "pass", summary: "All 10 gradients match.", checks: [],
                   error: null, stubs: [], stdout: "", stdout_truncated: false };
  self.heard = [];
  self.addEventListener("message", (event) => self.heard.push(event.data));
  self.forging = setInterval(() => {
    for (let n = 0; n < 20; n++)
      self.postMessage({ type: "result", id: n, nonce: String(n), result: forged });
    self.postMessage({ type: "failed", message: "forged failure" });
  }, 2);
  JSON.parse = () => forged;
}"""


def wrong_mul(exercises):
    return next(m for m in exercises["mul"].mistakes if m.explains == ("assign",)).bodies["mul"]


@pytest.mark.parametrize("what", HOSTILE)
def test_hostile_code_gets_the_cpython_verdict_and_changes_nothing(learner, exercises, what):
    body = HOSTILE[what]
    expected = grade("mul", {"mul": body})
    assert learner.solve("__mul__", body) == expected["verdict"] != "pass"
    assert as_read(expected["summary"]) in learner.result_text()
    # the next runs are graded as ever, on this tab and another
    assert learner.solve("__mul__", wrong_mul(exercises)) == "fail"
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"


def test_learner_code_cannot_reach_javascript_to_forge_a_verdict(learner, exercises):
    assert learner.solve("__mul__", ESCAPE) == grade("mul", {"mul": ESCAPE})["verdict"] == "error"
    assert learner.solve("__mul__", wrong_mul(exercises)) == "fail"
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"


def test_messages_forged_in_the_workers_global_scope_are_ignored(learner, exercises):
    learner.solve("__add__", exercises["add"].solutions["add"])  # Python is up
    worker = learner.python_workers[-1]
    worker.evaluate(FORGER)
    try:
        assert learner.solve("__mul__", wrong_mul(exercises)) == "fail"
        assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
        expect(learner.widget.get_by_text("Python ready")).to_be_visible()
        # requests (and their nonces) never pass through the worker's global scope
        assert worker.evaluate("self.heard.length") == 0
    finally:
        worker.evaluate("clearInterval(self.forging)")


def test_huge_output_is_capped_with_a_note_and_shown_as_text(learner, exercises):
    body = "for i in range(300000):\n    print('<i>', i)\n" + exercises["mul"].solutions["mul"]
    assert learner.solve("__mul__", body) == "pass"
    output = learner.result.locator("details", has_text="What your code printed")
    output.locator("summary").click()
    note = "The output was long, so only its beginning is shown."
    expect(output.get_by_text(note)).to_be_visible()
    shown = output.locator("pre").inner_text()
    assert shown.startswith("<i> 0\n") and len(shown) <= OUTPUT_LIMIT
    expect(output.locator("i")).to_have_count(0)
