"""`python -m grader regrade`: hand-ins graded with the verdicts they claim ignored, each in a
sealed worker of its own whose Python is put back before every run, so that nothing a hostile
hand-in does reaches another run or file: every honest file gets the grade it gets alone, at
`--jobs 1` and `2`, and a hostile one no more than its own code earns. Learner code cannot
reach the instructor's machine: not through Python (the runner's sandbox), nor beneath it, in
Node (runner/node.mjs)."""

import csv
import json
import subprocess
import sys

import pytest
from hostile import FOOTHOLD, GC_HOOK, PATCH_CODE, PATCHES

from grader.cli.sealed import HARNESS, ROOT, sealing_flags
from grader.exercises import catalog
from grader.handin import HandInError, course_id, read_handin

EXERCISES = catalog()
COURSE = course_id(EXERCISES)
RIGHT = {op: EXERCISES[op].solutions[op] for op in ("add", "mul", "tanh")}
WRONG_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
WRONG_ADD = "self.grad += out.grad\nother.grad += 2 * out.grad"
WRONG_TANH = "self.grad += out.data * out.grad"


def work(code, course=COURSE, tabs=None, learner=None):
    found = {"format": "micrograd-work", "version": 1, "course": course, "saved": "now"}
    found |= {"learner": learner} if learner else {}
    return json.dumps(found | {"code": code, "tabs": tabs or {}})


HONEST = {
    "a-ada": work({"add": RIGHT["add"], "mul": WRONG_MUL}, learner="Ada Lovelace (s1815)"),
    "m-bob": work({"add": WRONG_ADD, "mul": RIGHT["mul"], "tanh": RIGHT["tanh"]}),
    "z-cy": work({"add": RIGHT["add"], "mul": RIGHT["mul"]}, learner="Cy Young, ID 42"),
}
HOSTILE = {
    "b-code-patch": work({"mul": PATCH_CODE + WRONG_MUL}),
    "c-module-patch": work(
        {
            "add": "import sys, json\nsys.modules['runner.observe'].observe_json = "
            "lambda e, b: json.dumps({'checks': []})\nsys.modules['json'].dumps = "
            "lambda *a, **k: '{}'\n" + WRONG_ADD,
        }
    ),
    "d-builtins-patch": work(
        {
            "add": "import builtins\nbuiltins.isinstance = lambda *a: True\n"
            "builtins.round = lambda *a: 0\n" + WRONG_ADD,
            "mul": RIGHT["mul"],
        }
    ),
    "n-os-system": work({"add": "import os\nos.system('true')\n" + RIGHT["add"]}),
    "o-os-exit": work({"add": "import os\nos._exit(0)", "mul": RIGHT["mul"]}),
    "p-endless": work({"add": "while True:\n    pass", "mul": RIGHT["mul"]}),
    "q-memory-bomb": work({"add": "x = []\nwhile True:\n    x.append(bytearray(10**7))"}),
    "r-forged-claim": work({"mul": WRONG_MUL}, tabs={"mul": {"verdict": "pass"}}),
    # each of these strikes in its first tab, then holds wrong code in its later ones
    "g-json-parse-hook": work({"add": GC_HOOK + WRONG_ADD, "mul": WRONG_MUL}),
    "h-foothold": work({"add": FOOTHOLD + RIGHT["add"], "mul": WRONG_MUL}),
    "i-patches-first": work({"add": PATCHES + RIGHT["add"], "mul": WRONG_MUL, "tanh": WRONG_TANH}),
}


def regrade(folder, *options):
    out = folder / "grades.csv"
    done = subprocess.run(
        [sys.executable, "-m", "grader", "regrade", str(folder), "--csv", str(out), *options],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    with open(out, newline="", encoding="utf-8") as grades:
        return done, {row["file"].rsplit("/", 1)[-1]: row for row in csv.DictReader(grades)}


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    """The honest files regraded without the hostile ones."""
    folder = tmp_path_factory.mktemp("honest")
    for name, text in HONEST.items():
        (folder / f"{name}.json").write_text(text)
    return regrade(folder, "--jobs", "1")


@pytest.fixture(scope="module")
def regraded(tmp_path_factory):
    """A class's hand-ins, hostile ones before, between and after honest ones, regraded once,
    in one sealed process after another (`--jobs 1`): `(completed, rows by file, folder)`."""
    folder = tmp_path_factory.mktemp("handins")
    for name, text in (HONEST | HOSTILE).items():
        (folder / f"{name}.json").write_text(text)
    secret = folder / "secret.txt"
    secret.write_text("the instructor's")
    reach = {
        "add": f"import os\nos.system('touch {folder}/pwned')\nself.grad += 1",
        "mul": f"open('{folder}/pwned', 'w').write('x')\nself.grad += len(open('{secret}').read())",
        "tanh": "import socket\nsocket.create_connection(('127.0.0.1', 9))",
        "exp": "import subprocess\nsubprocess.run(['true'])",
        "relu": "import sys\nsys.exit(0)",
    }
    (folder / "e-reach.json").write_text(work(reach))
    (folder / "f-cross.json").write_text(work({"add": RIGHT["add"]}, course="0123456789ab"))
    # saved before an exercise was added to the course, and before mul's checks changed
    versions = {name: exercise.version for name, exercise in EXERCISES.items() if name != "tanh"}
    versions["mul"] = "0123456789ab"
    earlier = json.loads(work({"add": RIGHT["add"], "mul": RIGHT["mul"]}, course="fedcba987654"))
    (folder / "f-earlier.json").write_text(json.dumps(earlier | {"exercises": versions}))
    (folder / "junk.json").write_text("not json at all")
    (folder / "huge.json").write_text("{" + " " * 1_100_000 + "}")
    (folder / "other.json").write_text(json.dumps({"format": "something-else"}))
    (folder / "latin1.json").write_bytes(b'{"\xe9": 1}')
    settings = folder / "course.yml"  # the course's settings, as mkdocs.yml holds them
    settings.write_text("markdown_extensions:\n  - course:\n      time_limit: 2\n")
    options = ("--jobs", "1", "--feedback", str(folder / "feedback"), "--config", str(settings))
    done, rows = regrade(folder, *options)
    return done, rows, folder


@pytest.fixture(scope="module")
def regraded_two_at_once(regraded):
    """The same hand-ins regraded two at a time (`--jobs 2`): `(completed, rows by file)`."""
    _, _, folder = regraded
    return regrade(folder, "--jobs", "2", "--config", str(folder / "course.yml"))


def verdicts(row):
    return {name: row[name] for name in EXERCISES}


def test_every_honest_file_gets_the_grade_it_gets_alone(regraded, alone):
    _, rows, _ = regraded
    _, honest = alone
    assert set(honest) == {f"{name}.json" for name in HONEST}
    for file, row in honest.items():
        assert verdicts(rows[file]) == verdicts(row), file
        assert rows[file]["total"] == row["total"]
    assert verdicts(honest["a-ada.json"])["mul"] == "0"
    assert honest["z-cy.json"]["total"] == "2"
    together, apart = table_lines(regraded[0].stdout), table_lines(alone[0].stdout)
    for learner in ("Ada Lovelace (s1815)", "m-bob", "Cy Young, ID 42"):
        assert together[learner] == apart[learner]  # every verdict: pass, fail, error, -


def test_two_at_a_time_every_file_gets_the_grade_it_gets_one_at_a_time(
    regraded, regraded_two_at_once
):
    _, rows, _ = regraded
    done, two = regraded_two_at_once
    assert set(two) == set(rows)
    for file, row in rows.items():
        assert (verdicts(two[file]), two[file]["total"]) == (verdicts(row), row["total"]), file
    words, words_before = table_lines(done.stdout), table_lines(regraded[0].stdout)
    del words["q-memory-bomb"], words_before["q-memory-bomb"]  # which cap comes first varies
    assert words == words_before


def table_lines(table):
    """The table's verdicts by learner (each line ends with its learner, whole)."""
    return {line.rsplit("  ", 1)[-1]: line.split() for line in table.splitlines() if "  " in line}


def test_each_hostile_file_gets_its_own_verdict_or_a_named_refusal(regraded):
    table = regraded[0].stdout
    lines = table_lines(table)
    tab = {name: index for index, name in enumerate(EXERCISES)}
    seen = {name: lines[name] for name in HOSTILE}
    assert seen["b-code-patch"][tab["mul"]] == "fail"  # its own `=`, not the references
    assert seen["c-module-patch"][tab["add"]] == "fail"
    builtins_patched = seen["d-builtins-patch"]  # its own run broken; its next one whole
    assert (builtins_patched[tab["add"]], builtins_patched[tab["mul"]]) == ("error", "pass")
    assert seen["n-os-system"][tab["add"]] == "refused"
    assert (seen["o-os-exit"][tab["add"]], seen["o-os-exit"][tab["mul"]]) == ("crashed", "pass")
    assert (seen["p-endless"][tab["add"]], seen["p-endless"][tab["mul"]]) == ("time", "pass")
    assert seen["q-memory-bomb"][tab["add"]] in ("error", "memory")
    assert seen["r-forged-claim"][tab["mul"]] == "fail"
    assert "r-forged-claim.json: mul claimed pass" in table
    for name in ("g-json-parse-hook", "h-foothold", "i-patches-first"):
        assert seen[name][tab["mul"]] == "fail", name  # its own `=`, whatever came before
    assert seen["g-json-parse-hook"][tab["add"]] == "fail"  # its own wrong add: nothing found
    assert seen["h-foothold"][tab["add"]] == "error"  # JavaScript's objects are frozen
    assert seen["i-patches-first"][tab["tanh"]] == "fail"


def test_a_refusal_and_a_time_out_say_why_in_the_learner_s_feedback(regraded):
    _, _, folder = regraded
    endless = (folder / "feedback" / "p-endless.txt").read_text()
    assert "still running after 2 seconds, the time limit" in endless
    refused = (folder / "feedback" / "n-os-system.txt").read_text()
    assert "reached outside Python" in refused
    ada = (folder / "feedback" / "a-ada.txt").read_text()
    assert "Feedback for Ada Lovelace (s1815)" in ada
    assert "✗ x.grad = 4.5000000: x.grad should be 9.0" in ada


def test_hostile_code_reaches_nothing_of_the_instructor_s_machine(regraded):
    _, rows, folder = regraded
    assert not (folder / "pwned").exists()
    assert rows["e-reach.json"]["total"] == "0"


def test_a_file_from_another_version_of_the_course_is_graded_and_said_so(regraded):
    done, rows, _ = regraded
    assert rows["f-cross.json"]["add"] == "1"
    said = "was saved from another version of that exercise: graded against this one"
    assert f"f-cross.json: add {said}" in done.stdout  # a file that names no exercise's version
    assert (rows["f-earlier.json"]["add"], rows["f-earlier.json"]["mul"]) == ("1", "1")
    assert f"f-earlier.json: mul {said}" in done.stdout  # only the exercise that changed
    assert f"f-earlier.json: add {said}" not in done.stdout


def test_each_unreadable_file_is_named_on_its_own_line_and_the_exit_status_is_1(regraded):
    done, rows, _ = regraded
    assert done.returncode == 1, done.stderr
    for name, why in (
        ("junk", "not JSON"),
        ("huge", "larger than 1000 KB"),
        ("other", "not a micrograd work file"),
        ("latin1", "not JSON"),
    ):
        assert f"{name}.json: cannot be graded: {why}" in done.stdout
        assert rows[f"{name}.json"]["total"] == ""


def test_code_already_run_in_another_hand_in_is_graded_as_that_run_was(regraded):
    done, rows, _ = regraded
    again = int(done.stderr.split("; ", 1)[1].split()[0])
    assert again >= 5, done.stderr  # the right add and mul recur: each ran once
    assert rows["z-cy.json"]["mul"] == rows["m-bob.json"]["mul"] == "1"


def test_honest_files_alone_exit_0(alone):
    done, _ = alone
    assert done.returncode == 0, done.stderr


# what learner code would try if it got past Python's sandbox: each route to Node's global
# object, with every module of Pyodide's still importable (this stand-in for runner/seal.py
# cuts none of them), and what it would do with one; each says whether it got through
ESCAPES = """
import json

def attempt(call):
    try:
        call()
        return "got through"
    except Exception as error:
        return type(error).__name__

def cut_javascript():
    pass

def run_json(request):
    import js
    from pyodide.code import run_js
    from pyodide.ffi import to_js
    routes = {
        "js.process": lambda: js.process.pid,
        "run_js": lambda: run_js("globalThis"),
        "Function": lambda: to_js([]).constructor.constructor("return globalThis")(),
        "js.eval": lambda: js.eval("1"),
        "js.fetch": lambda: js.fetch("http://127.0.0.1:9/"),
    }
    return json.dumps({name: attempt(route) for name, route in routes.items()})
"""


def test_python_in_the_sealed_process_reaches_no_node_global(tmp_path):
    node = __import__("shutil").which("node")
    files = {"runner/__init__.py": "", "runner/seal.py": ESCAPES}
    setup = json.dumps({"files": files}) + "\n"
    made = subprocess.run(
        [node, *sealing_flags(node), str(HARNESS), "make"],
        input=setup.encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    snapshot = tmp_path / "escapes.snapshot"
    snapshot.write_bytes(made.stdout)
    done = subprocess.run(
        [node, *sealing_flags(node, snapshot), str(HARNESS), "run", str(snapshot)],
        input="{}\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0] == {"ready": True}, done.stderr
    found = json.loads(answers[1]["observation"])
    assert "got through" not in found.values(), found
    assert found["js.process"] == "AttributeError", found  # `js` is an empty object here


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


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("Ada Lovelace", "Ada Lovelace"),
        ("  Ada\n\tLovelace\x00 ", "Ada Lovelace"),
        (42, ""),
        ("x" * 500, "x" * 200),
    ],
)
def test_the_learner_s_name_is_read_as_one_line_of_text(given, read):
    assert read_handin(work({}, learner=given).encode()).learner == read
