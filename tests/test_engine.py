"""Find the bug (`kind = "engine"`, grader/engine.py, runner/engine.py): every tab fails as
shipped, passes with its bug fixed, and stays failed for a "fix" that only hides the bug on the
fixed checks; its words are numbers and where to measure, never the line or the fix; its prompt
says how many lines the bug is, and the fix it shows on request is the fix (grader/bug_diff.py)."""

import difflib
import json
import re
import shutil
from pathlib import Path

import pytest

from course.widget_data import training_data, widget_data
from grader import grade
from grader.cli.report import golden
from grader.disclosure import tells
from grader.engine import TRAIN, expected_losses, judge_engine
from grader.exercises import EXERCISES_DIR, ExerciseError, catalog, load_catalog
from grader.ops import ops_of
from grader.runner_data import runner_data
from runner.engine import GRAPHS, engine_graphs, observe_engine, training_runs

EXERCISES = catalog()
ENGINES = [e for e in EXERCISES.values() if e.kind == "engine"]
TRAINING_JS = Path(__file__).resolve().parent.parent / "widget/src/training/training.js"


def test_there_are_at_least_six_tabs_some_bugs_in_closures_some_not():
    assert len(ENGINES) >= 6
    assert sum(bool(e.train) for e in ENGINES) in (1, 2)


@pytest.mark.parametrize("exercise", ENGINES, ids=lambda e: e.id)
def test_a_tab_fails_as_shipped_and_passes_with_its_bug_fixed(exercise):
    shipped, fixed = exercise.stubs["engine"], exercise.solutions["engine"]
    changed = [
        line
        for line in difflib.ndiff(shipped.splitlines(), fixed.splitlines())
        if line[:1] in "+-" and line[2:].strip()
    ]
    assert 1 <= len(changed) <= 8, changed  # one planted bug: a line, or a block's lines
    assert grade(exercise.id, exercise.stubs, EXERCISES)["verdict"] == "fail"
    assert grade(exercise.id, exercise.solutions, EXERCISES)["verdict"] == "pass"


@pytest.mark.parametrize("exercise", ENGINES, ids=lambda e: e.id)
def test_a_fix_that_hides_the_bug_on_the_fixed_checks_stays_failed(exercise):
    assert exercise.known_wrong, "each tab has a known wrong 'fix'"
    for answer in exercise.known_wrong:
        result = grade(exercise.id, answer.bodies, EXERCISES)
        assert result["verdict"] == "fail", answer.name
        fixed_checks = result["checks"][: len(exercise.checks)]
        assert all(check["passed"] for check in fixed_checks), answer.name  # it does hide it
        assert result["diagnosis"], answer.name  # and the words say where it still fails


@pytest.mark.parametrize("exercise", ENGINES, ids=lambda e: e.id)
def test_no_hint_and_no_verdict_names_the_line_or_the_fix(exercise):
    fixed_lines = set(exercise.solutions["engine"].splitlines()) - set(
        exercise.stubs["engine"].splitlines()
    )
    fixes = {"".join(line.split()) for line in fixed_lines if line.strip()}
    words = [exercise.prompt, *exercise.hints, *golden(exercise).values()]
    for text in words:
        assert tells(text, exercise.draws) == [], text  # no op's rule, on any rung
        assert not re.search(r"\bline \d+", text), text
        squashed = "".join(text.split())
        assert not any(fix in squashed for fix in fixes), text


def test_a_verdict_names_the_smallest_graph_the_value_and_both_numbers():
    bug = EXERCISES["find-bug-1"]
    result = grade(bug.id, bug.stubs, EXERCISES)
    assert result["diagnosis"].startswith("The smallest random graph it gets wrong is `n0 = a + a`")
    assert "`a.grad` is 1.0000000, where 2.0000000 is right" in result["diagnosis"]
    assert "nudge `a`" in result["diagnosis"]
    shown = result["checks"][-1]
    assert shown["built"] == "n0 = a + a" and not shown["passed"]


def test_the_judge_draws_the_graphs_the_runner_ran():
    design = runner_data(EXERCISES)["designs"]["closures"]
    bug = EXERCISES["find-bug-1"]
    graphs = engine_graphs(design, list(bug.draws))
    assert len(graphs) == GRAPHS and graphs == engine_graphs(design, list(bug.draws))
    assert all(graph["grad"] == 1.0 for graph in graphs)  # the learner's backward() seeds it


def _seen(exercise, bodies):
    known = runner_data(EXERCISES)
    return json.loads(json.dumps(observe_engine(exercise.id, bodies, known)))


def test_a_forged_smallest_graph_is_never_built_and_never_passes_the_run():
    bug = EXERCISES["find-bug-3"]
    seen = _seen(bug, bug.stubs)
    hostile = "__import__('os').system('false')"
    seen["smallest"] = {
        "graph": {"leaves": [[hostile, 1.0]], "nodes": [], "grad": 1.0},
        "report": {"grads": {hostile: 1.0}},
    }
    result = judge_engine(bug, seen, EXERCISES)
    assert result.verdict == "fail" and hostile not in result.diagnosis


def test_an_engine_that_raises_on_a_random_graph_fails_with_where_it_raised():
    bug = EXERCISES["find-bug-1"]
    relu = "            self.grad += (out.data > 0) * out.grad"
    assert relu in bug.solutions["engine"]
    raising = relu.replace("self.grad", "assert x != 0, 'a kink'\n            self.grad", 1)
    body = {"engine": bug.solutions["engine"].replace(relu, raising, 1)}
    result = judge_engine(bug, _seen(bug, body), EXERCISES)
    assert result.verdict == "fail" and "random graph" in result.summary
    assert "AssertionError" in result.diagnosis and "a kink" in result.diagnosis


@pytest.mark.parametrize(
    "forge",
    [
        lambda g: g["nodes"][0][2].__setitem__(0, [1]),  # an operand no name can be
        lambda g: g["nodes"][0].__setitem__(1, ["add"]),  # an op no op can be
        lambda g: g["leaves"][0].__setitem__(1, 3),  # an int: exact arithmetic, endless powers
        lambda g: g["nodes"].append(["z9", "pow", [g["nodes"][-1][0], 99999]]),
    ],
)
def test_a_forged_smallest_graph_neither_stalls_nor_crashes_the_judge(forge):
    bug = EXERCISES["find-bug-1"]
    seen = _seen(bug, bug.stubs)
    assert seen["smallest"] and seen["smallest"]["graph"]["nodes"]
    forge(seen["smallest"]["graph"])
    assert judge_engine(bug, seen, EXERCISES).verdict == "fail"
    huge = json.dumps(seen).replace('"grad": 1.0', '"grad": 1' + "0" * 400, 1)
    assert judge_engine(bug, json.loads(huge), EXERCISES).verdict in ("fail", "error")


def test_a_run_that_reports_no_random_graph_does_not_pass():
    bug = EXERCISES["find-bug-1"]
    seen = _seen(bug, bug.solutions)
    assert judge_engine(bug, seen, EXERCISES).verdict == "pass"
    assert judge_engine(bug, seen | {"graphs": []}, EXERCISES).verdict != "pass"
    assert judge_engine(bug, seen | {"checks": seen["checks"][:1]}, EXERCISES).verdict != "pass"
    assert judge_engine(bug, "not a report", EXERCISES).verdict == "error"


def test_a_training_tab_is_graded_by_the_losses_of_every_run():
    tab = next(e for e in ENGINES if e.train)
    runs = training_runs(dict(tab.train))
    assert len(runs) > 1 and runs[0] == dict(tab.train)
    seen = _seen(tab, tab.solutions)
    for run, got in zip(runs, seen["train"], strict=True):
        right = expected_losses(run)
        assert len(got["losses"]) == len(right) == run["steps"]
        assert all(round(a - b, 7) == 0 for a, b in zip(got["losses"], right, strict=True))
    shipped = _seen(tab, tab.stubs)
    assert shipped["checks"] == seen["checks"]  # its engine is right: the loop is wrong
    assert judge_engine(tab, shipped, EXERCISES).verdict == "fail"


def test_an_engine_that_does_not_compile_is_told_at_its_own_line():
    bug = EXERCISES["find-bug-2"]
    source = bug.solutions["engine"].replace("topo.append(v)", "topo.append(v", 1)
    result = grade(bug.id, {"engine": source}, EXERCISES)
    assert result["verdict"] == "error" and result["error"]["slot"] == "engine"
    lines = source.splitlines()
    assert "topo.append(v" in "\n".join(
        lines[result["error"]["line"] - 2 : result["error"]["line"]]
    )


def test_an_engine_without_a_value_class_is_an_error():
    result = grade("find-bug-2", {"engine": "x = 1\n"}, EXERCISES)
    assert result["verdict"] == "error" and "Value" in result["summary"]


def test_each_break_it_switch_maps_to_the_tab_of_its_bug():
    """The training page's switches (widget/src/training/training.js) each have the
    find-the-bug tab of the same bug, as data its widget reads."""
    mapping = training_data(EXERCISES)["find_the_bug"]
    assert mapping == {"assign_add": "find-bug-1", "no_zero_grad": "find-bug-6"}
    switches = set(re.findall(r"breaks\.(\w+)", TRAINING_JS.read_text()))
    assert set(mapping) <= switches
    assert all(e.breaks in switches for e in ENGINES if e.breaks)


def _folder(tmp_path, toml):
    """A copy of the course's exercises with one more engine tab, `bug`, defined by `toml`."""
    root = tmp_path / "exercises"
    shutil.copytree(EXERCISES_DIR, root)
    (root / "bug").mkdir()
    (root / "bug" / "exercise.toml").write_text(toml)
    return root


BASE = 'kind = "engine"\nlabel = "bug"\nops = ["add"]\nprompt = "p: {places}"\n'
BUG = '[bug]\nfixed = "        self.grad = 1.0\\n"\nplanted = ""\n'
CHECK = '[[checks]]\nbuild = "x + x"\nx = 1.0\n'


def test_a_tab_is_the_course_s_engine_with_its_bug_planted(tmp_path):
    exercise = load_catalog(_folder(tmp_path, BASE + BUG + CHECK))["bug"]
    fixed = EXERCISES["find-bug-1"].solutions["engine"]  # every tab's but the loop's
    assert "def relu(self):" in fixed and fixed.count("def _backward():") == len(ops_of("closures"))
    assert exercise.solutions == {"engine": fixed}
    assert exercise.stubs == {"engine": fixed.replace("        self.grad = 1.0\n", "")}


def test_a_bug_must_be_lines_the_engine_has_once(tmp_path):
    bug = BUG.replace("self.grad = 1.0", "self.grad = 2.0")
    with pytest.raises(ExerciseError, match="lines the engine holds once"):
        load_catalog(_folder(tmp_path, BASE + bug + CHECK))


def test_an_engine_check_seeds_no_grad_of_its_own(tmp_path):
    root = _folder(tmp_path, BASE + BUG + CHECK + "grad = 2.0\n")
    with pytest.raises(ExerciseError, match="backward"):
        load_catalog(root)


def test_a_training_run_gives_every_key(tmp_path):
    toml = BASE + BUG + "[train]\nw = 0.5\nsteps = 3\n" + CHECK
    with pytest.raises(ExerciseError, match="train"):
        load_catalog(_folder(tmp_path, toml))


def test_a_work_file_keeps_each_engine_tab_s_code_under_a_key_of_its_own():
    """As the page saves it (widget/src/exercise/model.js `exerciseCodeKey` asks the engine's
    `ownKey` in widget/src/exercise/kinds.js), so that `python -m grader regrade` grades it."""
    from grader.handin import exercise_code_key

    keys = {exercise_code_key(e, "engine") for e in ENGINES}
    assert keys == {f"engine/{e.id}" for e in ENGINES}
    kinds = TRAINING_JS.parent.parent / "exercise" / "kinds.js"
    assert "ownKey: (exercise) => `engine/${exercise.id}`" in kinds.read_text()


def test_the_build_refuses_an_engine_its_own_checks_fail(tmp_path):
    from course.exercise_checks import ExerciseCheckError, check_exercises

    train = "[train]\nw = 0.5\nb = 0.0\npoints = [[1.0, 2.0]]\nsteps = 3\nlr = 0.1\n"
    root = _folder(tmp_path, BASE + BUG + train + CHECK)
    loop = root / TRAIN
    loop.write_text(loop.read_text().replace("lr * p.grad", "2 * lr * p.grad"))
    with pytest.raises(ExerciseCheckError, match=r"/bug/exercise\.toml: .*loss"):
        check_exercises(load_catalog(root))


def test_a_closure_s_bug_is_a_body_for_its_op_whatever_its_reference(tmp_path):
    """`op` and `planted`: the op's closure is that body, so that its op tab's reference can
    change without the tab's bug losing its place."""
    bug = '[bug]\nop = "mul"\nplanted = "self.grad += other.data * out.grad\\n"\n'
    root = _folder(tmp_path, BASE + bug + CHECK)
    reference = root / "mul" / ".meta" / "solution.py"
    reference.write_text("self.grad += out.grad * other.data\nother.grad += out.grad * self.data\n")
    exercise = load_catalog(root)["bug"]
    assert "other.grad += out.grad * self.data" in exercise.solutions["engine"]
    assert "other.grad +=" not in exercise.stubs["engine"].split("def __mul__")[1].split("def ")[1]
    with pytest.raises(ExerciseError, match="`bug` must give"):
        load_catalog(_folder(tmp_path / "2", BASE + bug + 'fixed = "x"\n' + CHECK))


def test_an_engine_tab_does_not_invite_the_learner_to_write_its_closures():
    engines = [e for e in EXERCISES.values() if e.kind == "engine"]
    assert engines
    for exercise in engines:
        assert "yours to write" not in exercise.stubs["engine"] + exercise.solutions["engine"]


# What each tab's bug is, read off its exercise.toml by a person (issue 50 counted the same): the
# prompt's words, which the build computes from the engine as shipped against its fix, must agree.
BUG_LINES = {
    "find-bug-1": "two lines are wrong",  # `=` for `+=` in both of add's lines
    "find-bug-2": "one line is wrong",  # topo, not reversed
    "find-bug-3": "one line is missing",  # the output's seed
    "find-bug-4": "two lines are missing",  # the visited check: `if v not in visited:`, `add`
    "find-bug-5": "one line is wrong",  # tanh's input for its output
    "find-bug-6": "two lines are missing",  # zero_grad's loop
}


def test_each_tab_says_how_many_of_its_lines_are_wrong_or_missing():
    assert {e.id for e in ENGINES} == set(BUG_LINES)
    for exercise in ENGINES:
        said = f"with one bug in it: {BUG_LINES[exercise.id]}."
        assert said in " ".join(exercise.prompt.split()), exercise.id
        assert "{places}" not in exercise.prompt


@pytest.mark.parametrize(
    ("shipped", "fixed", "said"),
    [
        ("a\nb\nc\n", "a\nB\nc\n", "one line is wrong"),
        ("a\nc\n", "a\n  b1\n  b2\nc\n", "two lines are missing"),
        ("a\n  c\n", "a\nif b:\n  c\n", "one line is missing"),  # indentation is not counted
        (
            "a\nx\nb\nc\n",
            "a\nb\nC\n\nd\n",  # a blank line is not counted
            "one line is wrong, one line is missing and one line is too many, in two places",
        ),
        ("a\nx\nc\n", "a\nb1\nb2\nc\n", "one line is wrong and one line is missing"),
    ],
)
def test_the_words_count_what_the_fix_changes(shipped, fixed, said):
    from grader.bug_diff import words

    assert words(shipped, fixed) == said


def test_a_prompt_without_its_places_is_refused(tmp_path):
    toml = BASE.replace(": {places}", "") + BUG + CHECK
    with pytest.raises(ExerciseError, match=r"exercise\.toml: .*\{places\}"):
        load_catalog(_folder(tmp_path, toml))


@pytest.mark.parametrize("exercise", ENGINES, ids=lambda e: e.id)
def test_the_fix_the_page_shows_turns_the_engine_as_shipped_into_its_fix(exercise):
    """Show the fix (widget/src/exercise/fix-diff.js): each place's lines marked " " and "-" are
    lines of the engine as shipped, in order, and those marked " " and "+" put there make it the
    fix; each place names the function it is in."""
    shipped = exercise.stubs["engine"].splitlines()
    assert exercise.fix and widget_data([exercise.id], EXERCISES, str)["exercises"][0]["fix"]
    start = 0
    for place in exercise.fix:
        before = [text for mark, text in place["lines"] if mark in " -"]
        after = [text for mark, text in place["lines"] if mark in " +"]
        at = next(i for i in range(start, len(shipped)) if shipped[i : i + len(before)] == before)
        shipped[at : at + len(before)] = after
        start = at + len(after)
        assert place["where"].startswith(("Value › ", "train")), place["where"]
    assert "\n".join(shipped) == exercise.solutions["engine"].rstrip("\n")
