"""`python -m grader regrade`: hand-ins graded with the verdicts they claim ignored, each bad file
named on a line of its own, and learner code that cannot reach the instructor's machine: not
through Python (the runner's sandbox), nor beneath it, in Node (runner/node.mjs)."""

import csv
import json
import subprocess
import sys

import pytest

from grader.exercises import catalog
from grader.handin import HandInError, course_id, read_handin
from grader.regrade import HARNESS, ROOT, sealing_flags

EXERCISES = catalog()
COURSE = course_id(EXERCISES)
WRONG_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"


def work(code, course=COURSE, tabs=None):
    found = {"format": "micrograd-work", "version": 1, "course": course, "saved": "now"}
    return json.dumps(found | {"code": code, "tabs": tabs or {}})


@pytest.fixture(scope="module")
def regraded(tmp_path_factory):
    """A class's hand-ins, regraded once: `(table, csv rows, the folder)`."""
    folder = tmp_path_factory.mktemp("handins")
    secret = folder / "secret.txt"
    secret.write_text("the instructor's")
    right = EXERCISES["add"].solutions["add"]
    files = {
        "ada": work({"add": right, "mul": WRONG_MUL}, tabs={"mul": {"verdict": "pass"}}),
        "bob": work({"add": "while True:\n    pass", "mul": EXERCISES["mul"].solutions["mul"]}),
        "cy": work({"add": right}, course="0123456789ab"),
        "eve": work(
            {
                "add": f"import os\nos.system('touch {folder}/pwned')\nself.grad += 1",
                "mul": f"open('{folder}/pwned', 'w').write('x')\n"
                f"self.grad += len(open('{secret}').read())",
                "tanh": "import socket\nsocket.create_connection(('127.0.0.1', 9))",
                "exp": "import subprocess\nsubprocess.run(['true'])",
                "relu": "import sys\nsys.exit(0)",
                "log": "x = bytearray(2**31)\nwhile True:\n    x += x",
            }
        ),
        "junk": "not json at all",
        "huge": "{" + " " * 1_100_000 + "}",
        "other": json.dumps({"format": "something-else"}),
    }
    for name, text in files.items():
        (folder / f"{name}.json").write_text(text)
    (folder / "latin1.json").write_bytes(b'{"\xe9": 1}')
    out = folder / "grades.csv"
    done = subprocess.run(
        [sys.executable, "-m", "grader", "regrade", str(folder), "--csv", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    with open(out, newline="") as grades:
        return done.stdout, list(csv.DictReader(grades)), folder


def verdicts(rows, learner):
    return {row["exercise"]: row["verdict"] for row in rows if row["learner"] == learner}


def test_each_learner_gets_the_verdict_of_their_code_whatever_the_file_claims(regraded):
    table, rows, _ = regraded
    ada = verdicts(rows, "ada")
    assert (ada["add"], ada["mul"], ada["tanh"], ada["diamond"]) == ("pass", "fail", "-", "fail")
    assert "ada.json: mul claimed pass" in table
    diagnosed = {row["exercise"]: row["diagnoses"] for row in rows if row["learner"] == "ada"}
    assert diagnosed["mul"] == "assign"


def test_code_that_never_ends_is_stopped_and_the_next_tab_still_graded(regraded):
    _, rows, _ = regraded
    bob = verdicts(rows, "bob")
    assert (bob["add"], bob["mul"]) == ("time", "pass")


def test_a_file_from_another_version_of_the_course_is_graded_and_said_so(regraded):
    table, rows, _ = regraded
    assert verdicts(rows, "cy")["add"] == "pass"
    assert "cy.json: from another version of the course" in table


def test_each_unreadable_file_is_named_on_its_own_line(regraded):
    table, rows, _ = regraded
    for name, why in (
        ("junk", "not JSON"),
        ("huge", "larger than 1000 KB"),
        ("other", "not a micrograd work file"),
        ("latin1", "not JSON"),
    ):
        assert f"{name}.json: cannot be graded: {why}" in table
        assert set(verdicts(rows, name).values()) == {"unreadable"}


def test_hostile_code_reaches_nothing_of_the_instructor_s_machine(regraded):
    _, rows, folder = regraded
    assert not (folder / "pwned").exists()
    eve = verdicts(rows, "eve")
    assert "pass" not in eve.values()
    assert eve["relu"] in ("error", "fail") and eve["log"] in ("error", "time")


# what learner code would try if it got past Python's sandbox into JavaScript: each line runs
# in the sealed harness, as a stand-in for runner/observe.py, and says whether it got through
ESCAPES = """
import js, json
def attempt(call):
    try:
        call()
        return "got through"
    except Exception as error:
        return type(error).__name__
def observe_json(exercise, bodies):
    modules = lambda name: js.process.getBuiltinModule(name)
    found = {
        "eval": attempt(lambda: js.eval("1")),
        "read": attempt(lambda: modules("fs").readFileSync("/etc/hostname")),
        "net": attempt(lambda: modules("net").connect(9, "127.0.0.1")),
        "spawn": attempt(lambda: modules("child_process").execSync("true")),
        "fetch": attempt(lambda: js.fetch("http://127.0.0.1:9/")),
        "kill": attempt(lambda: js.process.kill(js.process.pid, 0)),  # signal 0: harmless
        "binding": attempt(lambda: js.process.binding("tcp_wrap")),
    }
    found["env"] = len(js.Object.keys(js.process.env))
    return json.dumps(found)
def use_data(data):
    pass
"""


def test_beneath_python_node_offers_no_file_network_or_process():
    node = __import__("shutil").which("node")
    setup = {"files": {"runner/__init__.py": "", "runner/observe.py": ESCAPES}, "data": {}}
    request = json.dumps(setup) + "\n" + json.dumps({"exercise": "add", "bodies": {}}) + "\n"
    done = subprocess.run(
        [node, *sealing_flags(node), str(HARNESS)],
        input=request,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    found = json.loads(json.loads(done.stdout.splitlines()[0])["observation"])
    assert found.pop("env") == 0
    assert "got through" not in found.values(), found


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"[]", "not a micrograd work file"),
        (json.dumps({"format": "micrograd-work", "version": 9}).encode(), "version 9"),
        (work({"mul": 5}).encode(), "is not text"),
        (work({"mul": "x" * 100_001}).encode(), "is not text of a tab's size"),
    ],
)
def test_a_work_file_is_checked_before_anything_runs(raw, message):
    with pytest.raises(HandInError, match=message):
        read_handin(raw)
