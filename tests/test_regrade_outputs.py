"""What a regrade hands an instructor: the CSV in the forms Canvas's and Moodle's gradebook
imports document, feedback files, a Gradescope autograder whose run_autograder writes the
fields of Gradescope's results.json, and a command line that explains itself (exit status 2
for what makes no sense)."""

import csv
import json
import os
import stat
import subprocess
import sys
import zipfile

import pytest
from hostile import FOOTHOLD, GC_HOOK, PATCHES

from grader.cli.gradebook import Gradebook, feedback, feedback_path
from grader.cli.regrade import Graded, Tab, files_in, shard
from grader.cli.roster import read_roster
from grader.cli.sealed import ROOT
from grader.exercises import catalog
from grader.handin import course_id

EXERCISES = catalog()
WEIGHTS = dict.fromkeys(EXERCISES, 1.0) | {"mul": 2.5}
ADA = Graded(
    "handins/ada.json",
    "Lovelace, Ada",
    tabs={
        "add": Tab("pass", "All 13 gradients match."),
        "mul": Tab(
            "fail",
            "2 of 13 gradients are wrong.",
            "Your `__mul__` replaced x.grad.",
            ("assign",),
            (("x.grad", "4.5000000", False, "x.grad should be 9.0"),),
        ),
    },
)
JUNK = Graded("handins/junk.json", "junk", problem="not JSON: not a work file")


ROSTERS = {
    "canvas": "Student,ID,SIS User ID,SIS Login ID,Section\n"
    "    Points Possible,,,,\n"
    '"Lovelace, Ada",101,s1815,ada,Analytical Engines\n',
    "moodle": "First name,Last name,ID number,Email address\nAda,Lovelace,s1815,ada@example.org\n",
}


def gradebook(tmp_path, form):
    """The rows of `form`'s CSV, and of its review file, once ADA and JUNK are in."""
    path, review = tmp_path / f"{form}.csv", tmp_path / "review.csv"
    roster = None
    if form in ROSTERS:
        (tmp_path / "roster.csv").write_text(ROSTERS[form], encoding="utf-8")
        roster = read_roster(tmp_path / "roster.csv")
    book = Gradebook(path, form, WEIGHTS, roster, review)
    for graded in (ADA, JUNK):
        book.add(graded)
    book.close()
    found = [list(csv.reader(name.read_text("utf-8").splitlines())) for name in (path, review)]
    return found if form in ROSTERS else found[0]


def test_canvas_form_has_canvas_s_identity_columns_and_points_possible(tmp_path):
    rows, review = gradebook(tmp_path, "canvas")
    assert rows[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert rows[0][5:] == list(EXERCISES)  # no total: Canvas computes its own
    assert rows[1][0] == "Points Possible" and rows[1][5:7] == ["1", "2.5"]
    assert rows[2][:5] == ["Lovelace, Ada", "101", "s1815", "ada", "Analytical Engines"]
    assert rows[2][5:7] == ["1", "0"] and len(rows) == 3  # the unreadable file is not there
    assert review[1][:2] == ["handins/junk.json", "junk"]


def test_moodle_form_is_an_identifier_then_grades_and_the_total(tmp_path):
    rows, review = gradebook(tmp_path, "moodle")
    assert rows[0] == ["email", *EXERCISES, "total"]
    assert rows[1][:3] == ["ada@example.org", "1", "0"] and rows[1][-1] == "1"
    assert all(cell.replace(".", "").isdigit() for cell in rows[1][1:])
    assert len(rows) == 2 and review[1][2] == "it cannot be graded: not JSON: not a work file"


def test_plain_form_has_the_total_out_of_and_why_a_file_was_not_graded(tmp_path):
    rows = gradebook(tmp_path, "plain")
    assert rows[0][-3:] == ["total", "out of", "notes"]
    assert rows[1][-3:-1] == ["1", str(len(EXERCISES) + 1.5).removesuffix(".0")]
    assert rows[2][-1] == "not JSON: not a work file"


def test_feedback_holds_the_words_the_browser_showed(tmp_path):
    text = feedback(ADA, EXERCISES, WEIGHTS)
    assert "Total: 1 of" in text
    assert "## mul (__mul__): fail, 0 points" in text
    assert "Your `__mul__` replaced x.grad." in text
    assert "✗ x.grad = 4.5000000: x.grad should be 9.0" in text
    taken = set()
    first = feedback_path(tmp_path, ADA, taken)
    assert feedback_path(tmp_path, ADA, taken) != first  # two ada.json from two folders


def test_shards_split_the_files_with_each_in_exactly_one():
    files = [f"{n}.json" for n in range(10)]
    shares = [shard(files, part, 3) for part in (1, 2, 3)]
    assert sorted(sum(shares, [])) == sorted(files)
    assert [len(share) for share in shares] == [4, 3, 3]


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "grader", *args], capture_output=True, text=True, cwd=ROOT
    )


@pytest.mark.parametrize("command", [[], ["regrade"], ["gradescope"], ["gradescope-run"]])
def test_every_command_explains_itself(command):
    done = cli(*command, "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m grader")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["regrade", "x.json", "--csv"], "--csv: expected one argument"),
        (["regrade"], "the following arguments are required: PATH"),
        (["regrade", "x.json", "--jobs", "0"], "is not a whole number above 0"),
        (["regrade", "x.json", "--shard", "3/2"], "is not K/N"),
        (["regrade", "x.json", "--weight", "nope=2"], "no exercise 'nope'"),
        (["regrade", "x.json", "--weight", "mul=nan"], "is not EXERCISE=POINTS"),
        (["regrade", "x.json", "--form", "excel"], "invalid choice"),
        (["regrade", "x.json", "--form", "canvas"], "--form canvas needs --roster FILE"),
        (["regrade", "x.json", "--form", "moodle"], "--form moodle needs --roster FILE"),
        (["regrade", "x.json", "--match", "sid"], "invalid choice"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_a_command_line_that_makes_no_sense_exits_2(args, said):
    done = cli(*args)
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_a_missing_file_exits_1_and_is_named(tmp_path):
    done = cli("regrade", str(tmp_path / "nobody.json"))
    assert done.returncode == 1
    assert "nobody.json: cannot be graded: No such file or directory" in done.stdout


# Gradescope's autograder specification: results.json's fields and their types
TOP = {"score": float, "execution_time": float, "output": str, "output_format": str}
TOP |= {"visibility": str, "stdout_visibility": str, "extra_data": dict, "tests": list}
TOP |= {"test_output_format": str, "test_name_format": str, "leaderboard": list}
TEST = {"score": float, "max_score": float, "status": str, "name": str, "name_format": str}
TEST |= {"number": str, "output": str, "output_format": str, "tags": list}
TEST |= {"visibility": str, "extra_data": dict}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def valid(found, fields):
    for name, value in found.items():
        assert name in fields, f"{name} is not a field of Gradescope's results.json"
        kind = (int, float) if fields[name] is float else fields[name]
        assert isinstance(value, kind) and not isinstance(value, bool), name
    for name in ("visibility", "stdout_visibility"):
        assert found.get(name, "visible") in VISIBILITY


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """The Gradescope zip, written and unpacked as Gradescope unpacks it: `(source folder, the
    run_autograder script)`."""
    folder = tmp_path_factory.mktemp("autograder")
    out = folder / "autograder.zip"
    assert cli("gradescope", "--out", str(out), "--weight", "mul=3").returncode == 0
    with zipfile.ZipFile(out) as archive:
        for script in ("setup.sh", "run_autograder"):  # at the root, executable
            assert stat.S_IMODE(archive.getinfo(script).external_attr >> 16) & 0o111
        run = archive.read("run_autograder").decode()
        archive.extractall(folder / "source")
    return folder / "source", run


def autograde(autograder, tmp_path, code, learner="Ada"):
    """results.json for a submission of `code`, run as run_autograder runs it."""
    source, run = autograder
    submission = tmp_path / "submission"
    submission.mkdir()
    work = {"format": "micrograd-work", "version": 1, "course": course_id(EXERCISES)}
    (submission / "work.json").write_text(json.dumps(work | {"learner": learner, "code": code}))
    users = [{"name": "Ada Lovelace", "email": "ada@example.org", "sid": "s1815"}]
    (tmp_path / "submission_metadata.json").write_text(json.dumps({"users": users}))
    results = tmp_path / "results" / "results.json"
    command = run.split("exec ", 1)[1].replace("\\\n", " ").split()
    command[command.index("/autograder/submission")] = str(submission)
    command[command.index("/autograder/results/results.json")] = str(results)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([sys.executable, *command[1:]], cwd=source, env=env, timeout=300)
    assert done.returncode == 0
    return json.loads(results.read_text())


def test_the_gradescope_zip_holds_every_module_of_the_grader_and_the_runner(autograder):
    """Subpackages too (grader/kinds/, grader/cli/, grader/diagnosis/): here the venv's editable
    install would hide one left out, which Gradescope's machine does not have."""
    source, _ = autograder
    listed = subprocess.run(
        ["git", "ls-files", "grader", "runner"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    missing = [path for path in listed if path.endswith(".py") and not (source / path).is_file()]
    assert not missing, f"not in the Gradescope zip: {missing}"


def test_the_gradescope_zip_grades_a_submission_into_results_json(autograder, tmp_path):
    _, run = autograder
    assert "gradescope-run /autograder/submission /autograder/results/results.json" in run
    assert "--time-limit 5 " in run and "--weight mul=3" in run
    found = autograde(autograder, tmp_path, {"mul": EXERCISES["mul"].solutions["mul"]})
    valid(found, TOP)
    for test in found["tests"]:
        valid(test, TEST)
        assert test["status"] in ("passed", "failed")
    by_name = {test["name"]: test for test in found["tests"]}
    assert (by_name["mul (__mul__)"]["score"], by_name["mul (__mul__)"]["max_score"]) == (3, 3)
    assert found["score"] == sum(test["score"] for test in found["tests"]) == 3
    said = "Graded the work of Ada Lovelace (ada@example.org). The work file gives the name “Ada”."
    assert found["output"].startswith(said)  # Gradescope's word first; the file's, as it differs


def test_a_payload_pasted_into_a_first_tab_earns_its_later_tabs_nothing(autograder, tmp_path):
    wrong = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
    code = {
        "add": GC_HOOK + PATCHES + EXERCISES["add"].solutions["add"],
        "mul": FOOTHOLD + wrong,
        "tanh": "self.grad += out.data * out.grad",
        "exp": EXERCISES["exp"].solutions["exp"],
    }
    scores = {
        t["name"].split()[0]: t["score"] for t in autograde(autograder, tmp_path, code)["tests"]
    }
    assert (scores["mul"], scores["tanh"], scores["exp"]) == (0, 0, 1)  # what the code earns


def test_files_in_a_folder_are_found_sorted(tmp_path):
    for name in ("b.json", "a.json", "notes.txt"):
        (tmp_path / name).write_text("{}")
    assert [path.name for path in files_in([tmp_path])] == ["a.json", "b.json"]
