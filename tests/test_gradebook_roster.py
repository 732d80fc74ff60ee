"""Gradebook files that import into Canvas and Moodle as they are, and identity that is checked:
a roster as each LMS exports it (grader/cli/roster.py), the rule that matches a learner's text to
one learner of it and never guesses, the import files' columns and identifiers, the review file
that takes whatever cannot go in one, formula cells neutralised in every file, a missing folder
said in one line, and Gradescope's own word on who submitted. Hand-ins are built as Graded
objects: nothing here runs the sealed runner."""

import csv
import json
import subprocess
import sys

import pytest

from grader.cli.gradebook import Gradebook, cell
from grader.cli.gradescope import result_json, submitters
from grader.cli.regrade import Graded, Tab
from grader.cli.roster import RosterError, normal, read_roster
from grader.cli.sealed import ROOT
from grader.exercises import catalog

EXERCISES = catalog()
WEIGHTS = dict.fromkeys(EXERCISES, 1.0) | {"mul": 2.5}
FORMULA = ("=", "+", "-", "@", "\t", "\r")

# Canvas's gradebook export: a byte-order mark, its Points Possible row (its Student cell
# indented), the Student View account, an assignment that exists, and Canvas's own totals
CANVAS = (
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,micrograd (12345),Current Score\n"
    "    Points Possible,,,,,10,\n"
    '"Lovelace, Ada",101,s1815,ada,Analytical Engines,,\n'
    '"Brontë, Zoë",102,s1816,zbronte,Analytical Engines,,\n'
    '"Kim, Lee",103,s1817,lkim,Difference Engines,,\n'
    '"Kim, Lee",104,s1818,lkim2,Difference Engines,,\n'
    '"=cmd|calc, Eve",105,+s1819,eve,@Section,,\n'
    '"Student, Test",999,,,Analytical Engines,,\n'
)
# Moodle's participants download: the name fields, then the identity fields the site shows
MOODLE = (
    "First name,Last name,ID number,Email address\n"
    "Ada,Lovelace,s1815,ada@example.org\n"
    "Zoë,Brontë,s1816,zoe@example.org\n"
    "Bob,Noid,,bob@example.org\n"
    "Mal,Lory,-s1820,mal@example.org\n"
)
# Moodle's bulk user download: the fields' short names
MOODLE_BULK = "id,username,email,firstname,lastname,idnumber\n7,ada,ada@example.org,Ada,Lovelace,\n"


def roster_file(tmp_path, text, name="roster.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def graded(learner, file=None, problem="", passed=("add",)):
    tabs = {name: Tab("pass", "All gradients match.") for name in passed}
    return Graded(file or f"handins/work-{learner}.json", learner, problem, tabs=tabs)


def rows(path):
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def book(tmp_path, form, hand_ins, roster=None, assignment=""):
    """The import file's and the review file's rows, once `hand_ins` are graded into them."""
    path, review = tmp_path / f"{form}.csv", tmp_path / f"{form}-review.csv"
    gradebook = Gradebook(path, form, WEIGHTS, roster, review, assignment)
    for hand_in in hand_ins:
        gradebook.add(hand_in)
    gradebook.close()
    return rows(path), rows(review)


# the roster, as each LMS exports it


def test_a_canvas_export_is_read_without_its_points_possible_row_or_test_student(tmp_path):
    roster = read_roster(roster_file(tmp_path, CANVAS))
    assert roster.lms == "canvas" and roster.assignments == {"micrograd (12345)": "10"}
    assert [person.label for person in roster.people][:2] == ["Lovelace, Ada", "Brontë, Zoë"]
    assert len(roster.people) == 5
    ada = roster.people[0]
    assert ada.columns == ("Lovelace, Ada", "101", "s1815", "ada", "Analytical Engines")
    assert ada.row == 3


@pytest.mark.parametrize("text", [MOODLE, MOODLE.replace("Last name", "Surname"), MOODLE_BULK])
def test_a_moodle_download_is_read_by_its_headers_in_either_spelling(tmp_path, text):
    roster = read_roster(roster_file(tmp_path, text))
    assert roster.lms == "moodle" and roster.match == "email"
    assert roster.people[0].key == "ada@example.org"
    assert roster.people[0].columns[:2] == ("Ada", "Lovelace")


@pytest.mark.parametrize(
    ("text", "match", "said"),
    [
        ("name,score\nAda,3\n", "", "is neither Canvas's gradebook export"),
        ("", "", "is neither Canvas's gradebook export"),
        (CANVAS, "email", "--match is for a Moodle roster"),
        (MOODLE, "username", "has no username column"),
    ],
)
def test_a_roster_of_neither_lms_or_without_the_match_field_is_refused(tmp_path, text, match, said):
    with pytest.raises(RosterError, match=said) as refused:
        read_roster(roster_file(tmp_path, text), match)
    assert "\n" not in str(refused.value)


# the matching rule


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("Lovelace, Ada", 3),  # Canvas's Student, exactly
        ("101", 3),  # Canvas's ID
        ("s1815", 3),  # SIS User ID
        ("ada", 3),  # SIS Login ID
        ("Ada Lovelace", 3),  # Last, First read as First Last
        ("  LOVELACE,   ada ", 3),  # case and spacing set aside
        ("zoe bronte", 4),  # and accents
        ("ZOË BRONTË", 4),
        ("Ada Lovelace, s1815", 3),  # parts that all name one learner
        ("Lee Kim (lkim)", 5),  # the name fits two, the login one of them
    ],
)
def test_a_learner_text_names_one_learner_exactly_or_loosely(tmp_path, text, row):
    found = read_roster(roster_file(tmp_path, CANVAS)).find(text)
    assert found.person is not None and found.person.row == row, found.why


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Lee Kim", "it could name 2 learners: Kim, Lee (row 5 of the roster), Kim, Lee (row 6"),
        ("Ada Lovelace, s1816", "its parts name different learners"),
        ("Ada Lovelace (s9999)", "no one in the roster has this name or ID"),
        ("Student, Test", "no one in the roster"),
        ("Lovelace", "no one in the roster"),
    ],
)
def test_a_text_that_names_two_learners_or_none_names_nobody(tmp_path, text, why):
    found = read_roster(roster_file(tmp_path, CANVAS)).find(text)
    assert found.person is None and why in found.why


def test_an_exact_match_is_taken_before_a_loose_one(tmp_path):
    text = "Student,ID,SIS User ID,SIS Login ID,Section\nZoë,1,,,A\nZoe,2,,,A\n"
    roster = read_roster(roster_file(tmp_path, text))
    assert roster.find("Zoe").person.row == 3 and roster.find("Zoë").person.row == 2
    assert roster.find("ZOE").person is None  # loosely, both: nobody


def test_the_loose_rule_sets_aside_accents_case_and_spacing():
    assert normal("  Ångström\u00a0 ÉCOLE ") == normal("angstrom ecole") == "angstrom ecole"


# the import files


def test_canvas_rows_carry_the_roster_s_identity_and_a_column_per_exercise(tmp_path):
    roster = read_roster(roster_file(tmp_path, CANVAS))
    found, review = book(tmp_path, "canvas", [graded("Ada Lovelace")], roster)
    assert found[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *EXERCISES]
    assert found[1][0] == "Points Possible" and found[1][5:7] == ["1", "2.5"]
    assert found[2][:5] == ["Lovelace, Ada", "101", "s1815", "ada", "Analytical Engines"]
    assert found[2][5:7] == ["1", "0"] and len(found) == 3
    assert review == [["file", "learner", "why", "total"]]


def test_canvas_with_an_assignment_has_one_total_column_named_for_it(tmp_path):
    roster = read_roster(roster_file(tmp_path, CANVAS))
    hand_ins = [graded("s1815", passed=("add", "mul"))]
    found, _ = book(tmp_path, "canvas", hand_ins, roster, "micrograd (12345)")
    assert found[0] == [
        "Student",
        "ID",
        "SIS User ID",
        "SIS Login ID",
        "Section",
        "micrograd (12345)",
    ]
    # no Points Possible row: Canvas would take it as the existing assignment's new points
    assert found[1] == ["Lovelace, Ada", "101", "s1815", "ada", "Analytical Engines", "3.5"]
    assert len(found) == 2


@pytest.mark.parametrize("match", ["email", "idnumber"])
def test_moodle_rows_map_from_the_match_field_then_each_exercise_and_the_total(tmp_path, match):
    roster = read_roster(roster_file(tmp_path, MOODLE), match)
    found, review = book(tmp_path, "moodle", [graded("Zoe Bronte", passed=("mul",))], roster)
    assert found[0] == [match, *EXERCISES, "total"]
    key = {"email": "zoe@example.org", "idnumber": "s1816"}[match]
    assert found[1][:3] == [key, "0", "2.5"] and found[1][-1] == "2.5" and len(found) == 2
    assert len(review) == 1


def test_moodle_rows_that_it_could_not_map_go_to_review(tmp_path):
    roster = read_roster(roster_file(tmp_path, MOODLE), "idnumber")
    found, review = book(tmp_path, "moodle", [graded("Bob Noid"), graded("Mal Lory")], roster)
    assert len(found) == 1  # the header only: Moodle aborts a whole import at one bad row
    whys = {row[1]: row[2] for row in review[1:]}
    assert whys["Bob Noid"] == "the roster gives no idnumber for Bob Noid (row 4 of the roster)"
    assert "the idnumber of Mal Lory (row 5 of the roster) begins with '-'" in whys["Mal Lory"]


# what goes to review


@pytest.mark.parametrize("form", ["canvas", "moodle"])
def test_unmatched_duplicate_and_unreadable_hand_ins_go_only_to_review(tmp_path, form):
    roster = read_roster(roster_file(tmp_path, CANVAS if form == "canvas" else MOODLE))
    hand_ins = [
        graded("Ada Lovelace", "handins/ada.json"),
        graded("Zoë Brontë", "handins/zoe-1.json"),
        graded("zoe bronte", "handins/zoe-2.json"),  # the same learner, handed in twice
        graded("Grace Hopper", "handins/grace.json"),  # no one in the roster
        graded("junk", "handins/junk.json", problem="not JSON: not a work file"),
    ]
    found, review = book(tmp_path, form, hand_ins, roster)
    identity = 5 if form == "canvas" else 1
    imported = [row[:identity] for row in found[1 + (form == "canvas") :]]
    expected = ["Lovelace, Ada", "101"] if form == "canvas" else ["ada@example.org"]
    assert [row[: len(expected)] for row in imported] == [expected]
    whys = {row[0]: row[2] for row in review[1:]}
    assert sorted(whys) == [f"handins/{name}.json" for name in ("grace", "junk", "zoe-1", "zoe-2")]
    zoe = "Brontë, Zoë (row 4" if form == "canvas" else "Zoë Brontë (row 3"
    assert whys["handins/zoe-1.json"].startswith(f"2 hand-ins are of {zoe} of the roster): ")
    assert whys["handins/zoe-1.json"].endswith("handins/zoe-1.json, handins/zoe-2.json")
    assert whys["handins/grace.json"] == "no one in the roster has this name or ID"
    assert whys["handins/junk.json"].startswith("it cannot be graded: not JSON")
    totals = {row[0]: row[3] for row in review[1:]}
    assert totals["handins/zoe-1.json"] == "1" and totals["handins/junk.json"] == ""


def test_plain_keeps_every_hand_in_and_without_a_roster_reviews_one_name_twice(tmp_path):
    hand_ins = [graded("Ada", "a/work.json"), graded("ada", "b/work.json"), graded("Bob")]
    found, review = book(tmp_path, "plain", hand_ins)
    assert found[0][:2] == ["learner", "file"] and len(found) == 4
    assert [row[0] for row in review[1:]] == ["a/work.json", "b/work.json"]
    assert review[1][2] == '2 hand-ins are of the learner "Ada": a/work.json, b/work.json'


def test_plain_with_a_roster_adds_who_each_learner_is_in_it(tmp_path):
    roster = read_roster(roster_file(tmp_path, MOODLE))
    found, review = book(tmp_path, "plain", [graded("s1815"), graded("Nemo")], roster)
    assert found[0][:5] == ["learner", "First name", "Last name", "Email address", "file"]
    assert found[1][:4] == ["s1815", "Ada", "Lovelace", "ada@example.org"]
    assert found[2][:4] == ["Nemo", "", "", ""]
    assert [row[1] for row in review[1:]] == ["Nemo"]


# formula cells


@pytest.mark.parametrize("start", FORMULA)
def test_a_cell_a_spreadsheet_would_run_is_made_text(start):
    assert cell(f"{start}1+1") == f"'{start}1+1"
    assert cell("Ada") == "Ada" and cell(2.5) == "2.5" and cell("") == ""


def written_cells(*paths):
    return [value for path in paths for row in rows(path) for value in row]


@pytest.mark.parametrize("form", ["plain", "canvas", "moodle"])
def test_no_file_holds_a_cell_that_begins_a_formula(tmp_path, form):
    roster = read_roster(roster_file(tmp_path, CANVAS if form != "moodle" else MOODLE), "")
    hand_ins = [
        graded('=HYPERLINK("http://evil")', "handins/=evil.json"),
        graded("+1", "handins/plus.json", problem="-not JSON"),
        graded("@SUM(A1)"),
        graded("\tTab"),
        graded("eve" if form != "moodle" else "Mal Lory"),  # =cmd|calc, Eve; -s1820
    ]
    gradebook = Gradebook(tmp_path / "grades.csv", form, WEIGHTS, roster, tmp_path / "review.csv")
    for hand_in in hand_ins:
        gradebook.add(hand_in)
    gradebook.close()
    found = written_cells(tmp_path / "grades.csv", tmp_path / "review.csv")
    assert not [value for value in found if value.startswith(FORMULA)]
    assert '\'=HYPERLINK("http://evil")' in found and "'@SUM(A1)" in found
    if form != "moodle":  # the roster's own cells too
        assert {"'=cmd|calc, Eve", "'+s1819", "'@Section"} <= set(found)


# the command line


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "grader", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_a_csv_or_review_file_in_a_missing_folder_is_one_line_and_exit_status_1(tmp_path):
    missing = tmp_path / "no" / "such"
    for option in ("--csv", "--review"):
        done = cli("regrade", "x.json", option, str(missing / "grades.csv"))
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr == f"{option}: there is no folder {missing} to write grades.csv in\n"


def test_a_feedback_folder_that_cannot_be_made_is_one_line_and_exit_status_1(tmp_path):
    (tmp_path / "taken").write_text("a file where the folder would be")
    done = cli("regrade", "x.json", "--feedback", str(tmp_path / "taken" / "feedback"))
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("--feedback: the folder ") and "cannot be made" in done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--form", "canvas"], "--form canvas needs --roster FILE, Canvas's gradebook export"),
        (["--form", "moodle"], "--form moodle needs --roster FILE, Moodle's participants"),
        (["--form", "moodle", "--roster", "CANVAS"], "--form moodle needs Moodle's"),
        (["--roster", "OTHER"], "is neither Canvas's gradebook export"),
        (["--roster", "CANVAS", "--match", "email"], "--match is for a Moodle roster"),
        (["--match", "email"], "--match goes with --roster"),
        (["--assignment", "micrograd (12345)"], "--assignment goes with --form canvas"),
        (["--form", "canvas", "--roster", "CANVAS", "--assignment", "micrograd"], "Name (id)"),
        (
            ["--form", "canvas", "--roster", "CANVAS", "--assignment", "other (9)"],
            "has no column 'other (9)' (its assignments: 'micrograd (12345)')",
        ),
        (["--csv", "g.csv", "--review", "g.csv"], "--review must be another file than --csv"),
    ],
)
def test_roster_options_that_make_no_sense_exit_2_in_one_line(tmp_path, args, said):
    files = {"CANVAS": CANVAS, "OTHER": "name,score\n"}
    args = [str(roster_file(tmp_path, files[a], a)) if a in files else a for a in args]
    done = cli("regrade", "x.json", *args)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1].startswith("python -m grader regrade: error: ")


def test_an_assignment_out_of_other_points_than_the_total_is_noted(tmp_path):
    roster = str(roster_file(tmp_path, CANVAS))
    empty = tmp_path / "handins"
    empty.mkdir()
    options = ["--form", "canvas", "--roster", roster, "--assignment", "micrograd (12345)"]
    done = cli("regrade", str(empty), *options)
    said = "note: micrograd (12345) is out of 10 points in Canvas, and the totals here are out of"
    assert said in done.stderr and "--weight sets each exercise's points" in done.stderr
    weights = [f"--weight={name}=0" for name in EXERCISES if name not in ("add", "mul")]
    done = cli("regrade", str(empty), *options, *weights, "--weight", "mul=9")
    assert "note:" not in done.stderr  # 1 + 9 = 10


# Gradescope


def test_gradescope_s_metadata_names_who_was_graded(tmp_path):
    (tmp_path / "submission").mkdir()
    users = [{"name": "Ada Lovelace", "email": "ada@example.org", "sid": "s1815", "id": 7}]
    (tmp_path / "submission_metadata.json").write_text(json.dumps({"id": 1, "users": users}))
    people = submitters(tmp_path / "submission")
    assert people == (("Ada Lovelace", "ada@example.org", "s1815"),)
    said = result_json(
        graded("Lovelace, Ada", "submission/work.json"), EXERCISES, WEIGHTS, 1, people
    )
    assert said["output"] == "Graded the work of Ada Lovelace (ada@example.org)."
    for same in ("s1815", "ADA LOVELACE", "Ada Lovelace, s1815"):
        output = result_json(graded(same), EXERCISES, WEIGHTS, 1, people)["output"]
        assert "gives the name" not in output, same
    other = result_json(graded("Grace Hopper"), EXERCISES, WEIGHTS, 1, people)["output"]
    assert (
        other == "Graded the work of Ada Lovelace (ada@example.org). The work file gives "
        "the name “Grace Hopper”."
    )
    nameless = result_json(graded("work", "submission/work.json"), EXERCISES, WEIGHTS, 1, people)
    assert "gives the name" not in nameless["output"]  # the file's own name is not a name


def test_without_gradescope_s_metadata_the_work_file_names_the_learner(tmp_path):
    (tmp_path / "submission").mkdir()
    assert submitters(tmp_path / "submission") == ()
    (tmp_path / "submission_metadata.json").write_text("{not json")
    assert submitters(tmp_path / "submission") == ()
    said = result_json(graded("Ada"), EXERCISES, WEIGHTS, 1, ())
    assert said["output"] == "Graded the work of Ada."
