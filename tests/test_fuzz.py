"""The fuzzer of "Check my whole engine" (issue 42): random graphs over a design's ops, run on the
learner's whole class (runner/fuzz.py), judged and shrunk (grader/fuzz.py), and its command
(grader/cli/fuzz.py). The course's own answers run in this process; the command runs a work
file's code in a child process."""

import json
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_disclosure import without_theirs

from grader.cli import fuzz as fuzz_cli
from grader.cli.transcript import transcript
from grader.disclosure import tells
from grader.exercises import load_catalog
from grader.fuzz import first_failure, search
from grader.handin import code_key
from grader.runner_data import runner_data
from runner.fuzz import build_code, random_graphs, run_graphs

CATALOG = load_catalog()
KNOWN = runner_data(CATALOG)
OP_EXERCISES = [e for e in CATALOG.values() if e.kind == "op"]
ROOT = Path(__file__).resolve().parent.parent
# both halves in one interpreter: the smallest failing graph of a wrong tanh, and the count of
# graphs the references pass, as JSON (what Pyodide and CPython must agree on)
BOTH_HALVES = """
import json
from grader.exercises import load_catalog
from grader.fuzz import search
from grader.runner_data import runner_data
from runner.fuzz import run_graphs

design = runner_data(load_catalog())["designs"]["closures"]
ops = list(design["labels"])
wrong = design["references"] | {"tanh": "self.grad = (1 - out.data**2) * out.grad"}
bad = search(design, ops, lambda graphs: run_graphs(design, wrong, graphs), 500, 3)
good = search(design, ops, lambda graphs: run_graphs(design, design["references"], graphs), 200, 3)
found = json.dumps([bad.number, bad.smallest.graph, bad.smallest.leaf,
                    round(bad.smallest.got, 7), good.searched, good.failed])
found
"""
pytestmark = pytest.mark.usefixtures("runner_zip_data")  # the page's runner reads it


def in_process(design, bodies):
    """`run` for grader/fuzz.py, the reports passed through JSON as the browser passes them."""
    return lambda graphs: json.loads(json.dumps(run_graphs(design, bodies, graphs)))


def fuzz(design_name, bodies, graphs, seed=0):
    design = KNOWN["designs"][design_name]
    return search(design, list(design["labels"]), in_process(design, bodies), graphs, seed)


@pytest.mark.parametrize("exercise", OP_EXERCISES, ids=lambda e: e.id)
def test_every_known_wrong_closure_fails_within_500_graphs_and_shrinks_to_three_ops(exercise):
    """Each known wrong answer of an op's tab, with the references for every other op: a class
    that does not compile is told so; any other fails on a graph that shrinks to 3 ops or
    fewer, and the words for it state no local derivative."""
    op = exercise.ops[0]
    design = KNOWN["designs"][exercise.design]
    for wrong in exercise.known_wrong:
        bodies = design["references"] | {op: wrong.bodies[op]}
        finding = fuzz(exercise.design, bodies, 500)
        assert finding.failed, f"{exercise.id}: {wrong.name} passed 500 graphs"
        if not finding.broken:
            assert finding.number <= 500
            assert len(finding.smallest.graph["nodes"]) <= 3, (wrong.name, finding.smallest)
        args = SimpleNamespace(graphs=500, seed=0)
        words = fuzz_cli.told(finding, "Your code", design["labels"], args)
        assert tells(words) == [], (wrong.name, words)


@pytest.mark.parametrize("design_name", ["closures", "local_grads"])
def test_the_references_pass_5000_graphs(design_name):
    """About 2 s a design in CPython here (bench/fuzz_pace.py measures it)."""
    design = KNOWN["designs"][design_name]
    finding = fuzz(design_name, design["references"], 5000)
    assert not finding.failed and finding.searched == 5000


def test_the_same_seed_draws_the_same_graphs_and_another_seed_others():
    design = KNOWN["designs"]["closures"]

    def drawn(seed):
        graphs = random_graphs(design, list(design["labels"]), seed)
        return [build_code(next(graphs), design["labels"]) for _ in range(20)]

    assert drawn(7) == drawn(7)
    assert drawn(7) != drawn(8)


def test_the_graphs_have_what_the_issue_asks_for():
    """Over 500 graphs: every op, shared nodes, a node used twice by one op, constants on
    both sides, upstream grads other than 1, chains of several ops."""
    design = KNOWN["designs"]["closures"]
    graphs = random_graphs(design, list(design["labels"]), 0)
    sample = [next(graphs) for _ in range(500)]
    used = {op for graph in sample for _, op, _ in graph["nodes"]}
    assert used == set(design["labels"])
    operands = [operands for graph in sample for _, op, operands in graph["nodes"]]
    binary = [o for g in sample for _, op, o in g["nodes"] if op in ("add", "mul")]
    assert any(o[0] == o[1] for o in binary)
    assert any(isinstance(o[0], float) for o in binary)
    assert any(isinstance(o[1], float) for o in binary)
    assert any(graph["grad"] != 1.0 for graph in sample)
    assert max(len(graph["nodes"]) for graph in sample) >= 6
    assert len(operands) > 1000

    def shared(graph):
        names = [o for _, _, ops in graph["nodes"] for o in ops if isinstance(o, str)]
        return len(names) > len(set(names))

    assert any(shared(graph) for graph in sample)


def test_a_report_no_run_could_send_is_a_failure():
    design = KNOWN["designs"]["closures"]
    graphs = [next(random_graphs(design, ["add"], 0))]
    labels = design["labels"]
    for ran in (None, {"reports": []}, {"reports": [{"grads": {}}]}, {"reports": [7]}):
        assert first_failure(graphs, ran, labels)[1].error == "its report was unreadable"


def work_file(tmp_path, changed=None):
    code = {code_key(e.design, e.ops[0]): e.solutions[e.ops[0]] for e in OP_EXERCISES} | (
        changed or {}
    )
    path = tmp_path / "work.json"
    path.write_text(json.dumps({"format": "micrograd-work", "version": 1, "code": code}))
    return str(path)


def test_the_command_finds_no_failing_graph_in_the_references(tmp_path, capsys):
    assert fuzz_cli.main([work_file(tmp_path), "--graphs", "50"]) == 0
    out = capsys.readouterr().out
    assert "Your closures: no failing graph in 50 (seed 0)." in out
    assert "Your local-gradient tuples: no failing graph in 50 (seed 0)." in out


def test_the_command_prints_the_smallest_failing_graph_as_python(tmp_path, capsys):
    wrong = {"tanh": "self.grad = (1 - out.data**2) * out.grad"}
    assert fuzz_cli.main([work_file(tmp_path, wrong), "--seed", "0"]) == 1
    out = capsys.readouterr().out
    program = out.split("\n\n")[1]
    # which leaf comes first and is wrong depends on the graphs drawn, which every op changes
    assert re.match(r"\w+ = Value\(", program.splitlines()[0]), program
    assert program.splitlines()[-2].startswith("out = ")
    assert program.splitlines()[-1] == "out.backward()"
    compile(program, "<graph>", "exec")
    wrong = re.search(r"(\w+)\.grad: your engine gives \S+, the answer key ", out)
    assert wrong and f"{wrong.group(1)} = Value(" in program, out
    assert tells(out) == []


def test_the_command_names_a_class_that_does_not_compile(tmp_path, capsys):
    broken = {"local_grads/mul": "(other.data,"}
    assert fuzz_cli.main([work_file(tmp_path, broken), "--graphs", "20"]) == 1
    assert "Your local-gradient tuples do not compile, so no graph ran: SyntaxError" in (
        capsys.readouterr().out
    )


def test_the_command_stops_an_endless_loop(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(fuzz_cli, "TIME_LIMIT", 1)
    endless = {"mul": "while True:\n    pass"}
    assert fuzz_cli.main([work_file(tmp_path, endless), "--graphs", "20"]) == 1
    assert "Your closures: a run of graphs 1 to 20: still running after 1 s" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    "content", [b"not json", b'{"format": "micrograd-work", "version": 9, "code": {}}']
)
def test_the_command_refuses_a_file_that_is_not_a_work_file(tmp_path, content, capsys):
    path = tmp_path / "work.json"
    path.write_bytes(content)
    assert fuzz_cli.main([str(path)]) == 2
    assert fuzz_cli.main([str(tmp_path / "missing.json")]) == 2
    assert "cannot be read" in capsys.readouterr().err


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")
def test_pyodide_draws_runs_and_shrinks_exactly_like_cpython():
    """The browser's runtime (Pyodide in Node) draws the same graphs for the same seed, and
    finds and shrinks the same failure."""
    namespace = {}
    exec(BOTH_HALVES, namespace)
    done = subprocess.run(
        ["node", "tests/pyodide/run.mjs"],
        input=BOTH_HALVES,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    assert json.loads(done.stdout) == json.loads(namespace["found"])


def test_the_grader_s_commands_include_fuzz(tmp_path):
    """`python -m grader fuzz` is the grader's command (grader/cli/), with its exit statuses."""
    import subprocess
    import sys

    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "fuzz", str(bad)], capture_output=True, text=True
    )
    assert done.returncode == 2 and "not a micrograd work file" in done.stderr
    helped = subprocess.run(
        [sys.executable, "-m", "grader", "fuzz", "--help"], capture_output=True, text=True
    )
    assert helped.returncode == 0 and "--graphs" in helped.stdout


# The page's session (grader/fuzz_page.py), both halves in this process as the two workers run
# them: the judge's answers and the runner's (runner/fuzz.py ask_json), each as JSON.
GOLDEN = ROOT / "tests" / "fuzz_transcript.txt"


def page_session(design, bodies, count=500, told=()):
    """`(answers, found)`: every answer the judge gave, and what it found."""
    from grader import fuzz_page
    from runner.fuzz import ask_json

    bodies_json = json.dumps(bodies)
    search = fuzz_page.begin(design, bodies_json, count, 0, json.dumps(told))
    answers = [json.loads(search.first_json)]
    while "ask" in answers[-1]:
        assert not search.done
        ran = ask_json(design, bodies_json, json.dumps(answers[-1]["ask"]))
        answers.append(json.loads(search.next_json(ran)))
    assert search.done, "the search said what it found"
    return answers, answers[-1]["found"]


def fuzz_words(found):
    """What the page shows of a session, its own words and the judged check's, as text."""
    lines = [f"verdict: {found['verdict']}", f"summary: {found['summary']}"]
    if found["verdict"] == "fail":
        lines += [f"program: {line}" for line in found["program"].splitlines()]
        lines.append(f"did: {found['did']}")
        lines += ["judged, as any check:", *transcript(found["result"]).splitlines()]
    return "\n".join(lines)


def known_wrong_sessions():
    for exercise in OP_EXERCISES:
        op = exercise.ops[0]
        for wrong in exercise.known_wrong:
            yield f"{exercise.id}: {wrong.name}", exercise.design, {op: wrong.bodies[op]}


def other_outcomes():
    """`(name, words)` of what else a session can say: the references, nothing written, a class
    that does not compile, a run past its time limit."""
    from grader import fuzz_page

    refs = KNOWN["designs"]["local_grads"]["references"]
    yield "local_grads: the references", fuzz_words(page_session("local_grads", refs, 100)[1])
    yield "closures: the starter code", fuzz_words(page_session("closures", {"mul": "pass"})[1])
    broken = page_session("closures", {"mul": "self.grad += (other.data"}, 25)[1]
    yield "closures: a SyntaxError", fuzz_words(broken)
    search = fuzz_page.begin("closures", json.dumps({"mul": "while True:\n    pass"}), 50, 0)
    timed_out = json.loads(search.next_json(None, "still running after 5 s"))["found"]
    yield "closures: past the time limit", fuzz_words(timed_out)


def test_the_page_s_session_finds_shrinks_and_judges_a_shared_node_s_equals():
    """`=` for `+=` in __mul__ alone: progress as graph numbers, then shrinking, then the
    smallest graph observed and judged as a check of its own, every leaf checked."""
    wrong = {"mul": "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"}
    answers, found = page_session("closures", wrong)
    assert answers[0]["progress"] == {"graph": 1, "last": 25, "of": 500}
    assert any(a.get("progress") == {"shrinking": True} for a in answers)
    assert answers[-2]["ask"].keys() == {"observe"}
    assert found["verdict"] == "fail" and found["result"]["verdict"] == "fail"
    ops = [line for line in found["program"].splitlines() if " = Value(" not in line][:-1]
    assert 1 <= len(ops) <= 3
    assert found["did"].startswith(("a.grad: your engine gives", "b.grad", "c.grad"))
    checked = [row["value"] for row in found["result"]["checks"][0]["rows"]]
    assert all(name.endswith(".grad") for name in checked)
    assert tells(fuzz_words(found)) == []


def test_the_page_s_session_passes_the_references_and_says_what_else_it_found():
    refs = KNOWN["designs"]["closures"]["references"]
    assert page_session("closures", refs)[1]["summary"].startswith("No failing graph in 500: ")
    assert page_session("closures", {"mul": "pass"})[1]["verdict"] == "nothing"
    broken = page_session("local_grads", {"mul": "(other.data,"}, 20)[1]
    assert broken["verdict"] == "error" and "does not compile" in broken["summary"]


def test_the_page_s_session_after_a_time_out_a_forged_report_and_its_end():
    from grader import fuzz_page

    timed_out = fuzz_page.begin("closures", json.dumps({"mul": "while True:\n    pass"}), 50, 0)
    forged = fuzz_page.begin("closures", json.dumps({"mul": "self.grad += 1"}), 50, 0)
    found = json.loads(timed_out.next_json(None, "still running after 5 s"))["found"]
    assert found["summary"] == "A run of graphs 1 to 25: still running after 5 s."
    assert timed_out.done and not forged.done, "each session is the caller's"
    # once done, a session answers that it has nothing more, whatever it is sent
    assert json.loads(timed_out.next_json(None, "still running after 5 s")) == {"found": None}
    assert json.loads(timed_out.next_json("{}")) == {"found": None}
    answer = json.loads(forged.next_json('{"reports": "all passed"}'))
    assert answer.get("progress") == {"shrinking": True}, "a report no run could send fails"


def test_the_page_s_words_for_every_known_wrong_answer_read_as_the_golden_file():
    """Below the formula rung (no op told): `FUZZ_GOLDEN=write pytest ...` writes the file
    again, to review as a diff."""
    import os

    said = []
    for name, design, bodies in known_wrong_sessions():
        _, found = page_session(design, bodies)
        words = fuzz_words(found)
        # the judged check's error quotes the learner's own line, as any check's does
        assert tells(without_theirs(words, bodies)) == [], (name, words)
        said.append(f"## {name}\n{words}\n")
    said += [f"## {name}\n{words}\n" for name, words in other_outcomes()]
    text = "\n".join(said)
    if os.environ.get("FUZZ_GOLDEN") == "write":
        GOLDEN.write_text(text)
    assert GOLDEN.read_text() == text


def test_the_page_s_session_says_an_op_s_rule_only_once_its_tab_reached_the_formula_rung():
    """The judged check's words follow the ladder: `told` (the tabs at their formula rung, as
    the page's ladder.js gives them) lets the rule be said, for that op only."""
    wrong = {"mul": "self.grad += self.data * out.grad\nother.grad += other.data * out.grad"}
    below = fuzz_words(page_session("closures", wrong)[1])
    other = fuzz_words(page_session("closures", wrong, told=["add"])[1])
    told = fuzz_words(page_session("closures", wrong, told=["mul"])[1])
    assert tells(below) == [] and below == other
    assert told != below


def test_the_command_runs_a_work_file_sealed(tmp_path, capsys):
    marker = tmp_path / "ran-outside"
    reach = {"add": f"import os\nos.system('touch {marker}')\nself.grad += out.grad"}
    fuzz_cli.main([work_file(tmp_path, reach), "--graphs", "20"])
    assert not marker.exists()  # nothing of it ran on this machine
    said = "Your closures: a run of graphs 1 to 20: it reached outside Python (a process, a file"
    assert said in capsys.readouterr().out
