"""The class at a glance (grader/cli/class_report.py): for a small class built by hand, each
exercise's shares, the learners per named cause, each learner's next hint, the CSV's columns,
and a page that names nothing outside its folder; then generated hand-ins, regraded."""

import csv
import json
import re
import sys
from html.parser import HTMLParser

import pytest

from grader import checker
from grader.cli import class_report
from grader.cli.class_report import COLUMNS, write_report
from grader.cli.regrade import SAID, Graded, Tab, regrade_file
from grader.cli.sealed import ROOT, Harness, SealedRunner
from grader.diagnosis.explain import DIAGNOSES, NAMES
from grader.exercises import catalog

EXERCISES = catalog()
WEIGHTS = dict.fromkeys(EXERCISES, 1.0)
PASS = Tab("pass", "All 13 gradients match to seven decimals.")


def fail(*diagnoses, said="Your code replaced x.grad."):
    return Tab("fail", "2 of 13 gradients are wrong.", said, diagnoses)


CLASS = [
    Graded("ada.json", "Ada", tabs={"add": PASS, "mul": fail("assign")}),
    Graded("bob.json", "Bob", tabs={"add": fail("no_upstream", "assign", said="Bob's words.")}),
    Graded("cy.json", "Cy", tabs={"add": PASS, "mul": PASS}),
    Graded("dee.json", "Dee", tabs={"add": fail(said="")}),  # wrong, and no cause named
    Graded("eve.json", "Eve", tabs={"add": Tab("time", SAID["time"], "", ("still running",))}),
    # diamond runs the op tabs' code: pow, not started, is where Fay should start
    Graded("fay.json", "Fay", tabs={"add": PASS, "mul": PASS, "diamond": fail("nothing")}),
    Graded("x.json", "<b>Mal</b> & co", tabs={"add": PASS}),
    Graded("junk.json", "junk", problem="not JSON: not a work file"),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    page = write_report(folder, CLASS, EXERCISES, WEIGHTS)
    return folder, page.read_text(encoding="utf-8")


def rows(folder):
    with open(folder / "diagnoses.csv", newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_every_named_cause_has_a_short_name():
    assert set(NAMES) == set(DIAGNOSES) | set(checker.DIAGNOSES)
    assert NAMES["assign"] == "= for +=" and NAMES["no_upstream"] == "missing out.grad"


def test_the_shares_count_learners_who_passed_tried_and_did_not_start():
    usable = [graded for graded in CLASS if not graded.problem]
    add = class_report.standing(EXERCISES["add"], usable)
    assert (add.passed, add.tried, add.not_started) == (4, 3, 0)
    mul = class_report.standing(EXERCISES["mul"], usable)
    assert (mul.passed, mul.tried, mul.not_started) == (2, 1, 4)


def test_each_cause_counts_the_learners_it_was_found_in_most_first():
    usable = [graded for graded in CLASS if not graded.problem]
    add = class_report.standing(EXERCISES["add"], usable)
    assert add.causes == (("assign", 1), ("no_upstream", 1))  # a tie: the grader's order
    assert add.unnamed == 2  # Dee's fail and Eve's time-out name no cause
    mul = class_report.standing(EXERCISES["mul"], usable)
    assert mul.causes == (("assign", 1),) and mul.unnamed == 0


def test_the_csv_has_a_row_per_exercise_and_outcome_then_per_cause(report):
    folder, _ = report
    with open(folder / "diagnoses.csv", newline="", encoding="utf-8") as file:
        assert next(csv.reader(file)) == COLUMNS
    add = [row for row in rows(folder) if row["exercise"] == "add"]
    assert [(row["kind"], row["key"], row["learners"]) for row in add] == [
        ("outcome", "passed", "4"),
        ("outcome", "tried", "3"),
        ("outcome", "not_started", "0"),
        ("diagnosis", "assign", "1"),
        ("diagnosis", "no_upstream", "1"),
    ]
    assert add[0]["share of class"] == "0.571" and add[0]["label"] == "__add__"
    assert add[3]["name"] == "= for +=" and add[4]["name"] == "missing out.grad"
    assert {row["exercise"] for row in rows(folder)} == set(EXERCISES)


def hints():
    found = (class_report.next_hint(graded, EXERCISES, WEIGHTS) for graded in CLASS)
    return {hint.learner: hint for hint in found}


def test_each_learner_s_next_hint_fits_their_first_failing_exercise():
    said = hints()
    assert (
        said["Ada"].exercise == "mul (__mul__)" and said["Ada"].hint == "Your code replaced x.grad."
    )
    assert said["Ada"].source == "the grader's diagnosis" and said["Ada"].points == "1 of 25"
    assert (said["Bob"].exercise, said["Bob"].hint) == ("add (__add__)", "Bob's words.")
    assert said["Dee"].hint == EXERCISES["add"].hints[0]
    assert said["Dee"].source == "the exercise's first hint"
    assert (said["Eve"].hint, said["Eve"].source) == (SAID["time"], "what stopped the run")
    assert said["Fay"].exercise == "pow (__pow__)" and said["Fay"].hint == EXERCISES["pow"].hints[0]
    assert "diamond fails, and runs this exercise's code" in said["Fay"].source
    # failed none: the first exercise not started yet
    assert said["Cy"].exercise == "pow (__pow__)" and "not started" in said["Cy"].source
    assert said["junk"].problem == "not JSON: not a work file" and not said["junk"].source


class Page(HTMLParser):
    """What the page refers to (every src and href) and its tables' header cells."""

    def __init__(self, text):
        super().__init__()
        self.refs, self.headers, self.charts = [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.refs += [attrs[name] for name in ("src", "href") if name in attrs]
        if tag == "th":
            self.headers.append(attrs.get("scope"))
        if "chart" in attrs.get("class", "").split():
            self.charts.append(attrs)


def test_the_page_names_nothing_outside_its_folder(report):
    folder, text = report
    assert not re.search(r"https?:", text, re.IGNORECASE)
    assert not re.search(r"https?:", (folder / "diagnoses.csv").read_text(encoding="utf-8"))
    local = {"uPlot.min.css", "uPlot.iife.min.js"}
    assert all(ref.startswith("#") or ref in local for ref in Page(text).refs)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', text)[1]
    assert "default-src 'none'" in policy and "connect-src" not in policy
    for name in local:  # uPlot's own files, as pinned; its one URL is its licence's comment
        assert (folder / name).read_bytes() == (class_report.UPLOT / name).read_bytes()


def test_the_page_is_for_screen_readers_too(report):
    _, text = report
    page = Page(text)
    assert len(page.charts) == len(EXERCISES)
    assert all(chart["role"] == "img" for chart in page.charts)
    assert page.charts[0]["aria-label"].startswith("A bar chart of learners: passed 4, tried 3,")
    assert all(scope in ("col", "row") for scope in page.headers)
    assert '<html lang="en">' in text and "<caption>" in text


def test_a_learner_s_name_and_the_grader_s_words_are_escaped(report):
    _, text = report
    assert "&lt;b&gt;Mal&lt;/b&gt; &amp; co" in text and "<b>Mal</b>" not in text
    data = re.search(r'<script type="application/json" id="charts">(.*?)</script>', text, re.S)
    assert json.loads(data[1])[0]["labels"][:3] == ["passed", "tried", "did not start"]


def test_without_uplot_the_page_keeps_its_tables_and_says_why(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(class_report, "UPLOT", tmp_path / "nowhere")
    text = write_report(tmp_path / "out", CLASS, EXERCISES, WEIGHTS).read_text(encoding="utf-8")
    assert "uPlot.iife.min.js" not in text and "Every exercise" in text
    assert "make regrade-setup" in capsys.readouterr().err


def test_generated_hand_ins_regraded_make_a_report(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    from regrade_pace import hand_ins

    from grader.handin import course_id

    [work] = hand_ins(1, seed=3)  # regraded sealed, as a regrade does: one is enough
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    harness = Harness(EXERCISES, time_limit=5)
    runner = SealedRunner(harness)
    try:
        graded = regrade_file(tmp_path / "work.json", EXERCISES, runner, course_id(EXERCISES))
    finally:
        runner.close()
        harness.close()
    write_report(tmp_path / "report", [graded], EXERCISES, WEIGHTS)
    found = rows(tmp_path / "report")
    for exercise in EXERCISES:
        outcomes = [int(row["learners"]) for row in found if row["exercise"] == exercise][:3]
        assert sum(outcomes) == 1
    causes = {row["key"] for row in found if row["kind"] == "diagnosis"}
    assert causes and causes <= set(NAMES)
