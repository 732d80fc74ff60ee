"""Instructors add exercises as folders; the loader finds them and names what is wrong, down
to the file and the key."""

import math
import re
import shutil

import pytest
from conftest import unused

from grader import grade
from grader.exercises import EXERCISES_DIR, ExerciseError, load_catalog
from grader.ops import CLOSURES, OPS, Op, Wrong

FOLDERS = {path.name for path in EXERCISES_DIR.iterdir()}
UNKNOWN_OP = unused("sin", OPS)  # an op no Value class has
NEW_OP = unused("cube", {*OPS, *FOLDERS})  # the made-up op the tests add

NEURON = """
kind = "graph"
label = "neuron"
ops = ["add", "mul", "tanh"]
prompt = "A neuron with two inputs."
[[checks]]
build = "o = (x1 * w1 + x2 * w2 + b).tanh()"
x1 = 1.0
x2 = -2.0
w1 = 0.5
w2 = 0.25
b = 0.1
"""


@pytest.fixture
def course(tmp_path):
    root = tmp_path / "exercises"
    shutil.copytree(EXERCISES_DIR, root)
    return root


def add(course, name, spec, stub=None, solution=None):
    """An instructor's new folder `name`: `spec` as its exercise.toml, and its code."""
    (course / name / ".meta").mkdir(parents=True, exist_ok=True)
    (course / name / "exercise.toml").write_text(spec)
    if stub is not None:
        (course / name / "stub.py").write_text(stub)
    if solution is not None:
        (course / name / ".meta" / "solution.py").write_text(solution)


def refused(course, message):
    with pytest.raises(ExerciseError, match=message):
        load_catalog(course)


def test_the_made_up_names_are_ones_nobody_took():
    assert unused("sin", {"sin", "sin1", "cos"}) == "sin2" and unused("sin", {"cos"}) == "sin"
    assert UNKNOWN_OP not in OPS and NEW_OP not in OPS and NEW_OP not in FOLDERS


def test_a_new_graph_exercise_runs_the_closures_it_lists(course, exercises):
    add(course, "neuron", NEURON)
    catalog = load_catalog(course)
    closures = [e.id for e in catalog.values() if e.design == "closures"]
    # graph exercises follow the op tabs (in folder order, whatever other folders there are)
    assert closures.index("neuron") > closures.index("tanh") and catalog["neuron"].kind == "graph"
    bodies = {op: exercises[op].solutions[op] for op in ("add", "mul", "tanh")}
    assert grade("neuron", bodies, catalog)["verdict"] == "pass"
    wrong = dict(bodies, tanh="self.grad = (1 - out.data**2) * out.grad\nself.grad += 1")
    assert grade("neuron", wrong, catalog)["verdict"] == "fail"
    stubbed = grade("neuron", dict(bodies, tanh=""), catalog)
    assert "Still the starter code: tanh." in stubbed["summary"]
    assert "o.backward()" in catalog["neuron"].test_code


@pytest.fixture
def cube():
    """A made-up op (a cube), registered as grader/ops.py registers the real ones, then removed."""
    OPS[NEW_OP] = Op(
        name=NEW_OP,
        label=NEW_OP,
        symbol="³",
        arity=1,
        forward=lambda a: a.x**3,
        local=lambda a: (3 * a.x**2,),
        rule="3·x**2 × out.grad",
        methods={
            CLOSURES: OPS["exp"]
            .methods[CLOSURES]
            .replace("exp", NEW_OP)
            .replace(f"math.{NEW_OP}(x)", "x**3")
        },
        wrong={
            "cube_power_kept": Wrong(
                lambda a: (3 * a.x**3,), "Lower the power by one.", "Too steep: measure it."
            )
        },
        tells=(r"3\*x\*\*2",),
    )
    yield OPS[NEW_OP]
    del OPS[NEW_OP]


def test_a_new_op_is_one_entry_and_one_folder(course, cube):
    """Nothing else: the scaffold, the answer key, the diagnoses and the table follow."""
    add(
        course,
        NEW_OP,
        f'kind = "op"\nop = "{NEW_OP}"\nprompt = "x³."\nchecks = [\n'
        f'  {{ build = "x.{NEW_OP}()", x = 2.0 }},\n'
        f'  {{ build = "(x * y).{NEW_OP}()", x = 0.5, y = -3.0, grad = 0.5 }},\n]\n',
        stub="pass\n",
        solution="self.grad += 3 * x**2 * out.grad\n",
    )
    catalog = load_catalog(course)
    assert catalog[NEW_OP].label == NEW_OP
    reference = grade(NEW_OP, {NEW_OP: "self.grad += 3 * x**2 * out.grad"}, catalog)
    assert reference["verdict"] == "pass"
    assert math.isclose(reference["checks"][1]["rows"][0]["expected"], 0.5 * 3 * 1.5**2 * -3.0)
    kept = grade(NEW_OP, {NEW_OP: "self.grad += 3 * x**3 * out.grad"}, catalog)
    assert kept["verdict"] == "fail" and kept["diagnoses"] == ["cube_power_kept"]
    assert "Too steep" in kept["diagnosis"] and "3·x**2" not in kept["diagnosis"]
    told = grade(NEW_OP, {NEW_OP: "self.grad += 3 * x**3 * out.grad"}, catalog, [NEW_OP])
    assert "Lower the power" in told["diagnosis"] and "3·x**2 × out.grad" in told["diagnosis"]
    assigned = grade(NEW_OP, {NEW_OP: "self.grad = 3 * x**2"}, catalog)
    assert assigned["diagnoses"] == ["no_upstream"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ('label = "x"\n', "`kind` must be one of op, graph"),
        ('kind = "graph"\nlabel = "n"\nops = ["add"]\n', "prompt, checks missing"),
        (
            NEURON.replace("prompt =", 'hint = "Look."\nprompt ='),
            "unknown key `hint`; did you mean `hints`",
        ),
        (
            NEURON.replace("b = 0.1", "b = 0.1\ngrads = 0.5"),
            "unknown key `grads` in the check .*; did you mean `grad`",
        ),
        (
            NEURON.replace('["add", "mul", "tanh"]', f'["relu", "{UNKNOWN_OP}"]'),
            f"no op {UNKNOWN_OP} in the closures Value class",
        ),
        (
            NEURON.replace('build = "o = (', 'build = "o = x1; ('),
            "must end by assigning its output",
        ),
        (NEURON.replace("b = 0.1", 'b = "0.1"'), "the leaf `b` in the check .* must be a number"),
        (
            NEURON.replace("b = 0.1", 'b = 0.1\ncheck = ["q"]'),
            "`check` in the check .* names `q`, which the check does not define; it defines `b`",
        ),
        (
            NEURON.replace("b = 0.1\n", ""),
            "the check `o = .*` reads `b`, which it does not give: add `b = <number>` to it",
        ),
        (NEURON.replace('kind = "graph"', 'kind = "graph"\ndesign = "tapes"'), "no design 'tapes'"),
        (
            NEURON.replace(".tanh()", ".tanh() * (x1 ** -1)").replace("x1 = 1.0", "x1 = 0.0"),
            "the check `o = .*` cannot be computed: ZeroDivisionError",
        ),
        ("label = \n", "neuron/exercise.toml"),
    ],
)
def test_mistakes_in_a_definition_name_the_file_and_the_key(course, spec, message):
    add(course, "neuron", spec)
    refused(course, message)


def test_a_known_wrong_answer_must_name_real_diagnoses(course):
    path = course / "add" / ".meta" / "wrong_answers.toml"
    path.write_text('[[answer]]\nname = "x"\ndiagnoses = ["asign"]\nbody = "pass"\n')
    refused(course, r"add/.meta/wrong_answers.toml: unknown diagnosis asign")
    path.write_text('[[answer]]\nname = "x"\ndiagnosis = ["assign"]\nbody = "pass"\n')
    refused(course, "unknown key `diagnosis`; did you mean `diagnoses`")


def test_an_op_exercise_needs_its_stub(course):
    (course / "add" / "stub.py").unlink()
    refused(course, r"add/stub.py is missing: the learner's editor starts from it")


def test_a_change_of_words_keeps_the_exercise_s_version_and_a_change_of_checks_does_not(course):
    before = load_catalog(course)["mul"].version
    toml = course / "mul" / "exercise.toml"
    text = toml.read_text()
    toml.write_text(text.replace("prompt = ", 'label = "__mul__"\nprompt = ', 1))
    assert load_catalog(course)["mul"].version == before
    toml.write_text(text.replace("out.grad", "the gradient from above"))
    assert load_catalog(course)["mul"].version == before, "the prompt's words are not graded"
    toml.write_text(text.replace('{ build = "x * y", x = 2.0', '{ build = "x * y", x = 2.5', 1))
    assert load_catalog(course)["mul"].version != before


@pytest.mark.parametrize("kind", ["op", "checker"])
def test_a_second_folder_for_one_op_names_both_folders(course, exercises, kind):
    """Each op of a design has one tab (a checker's slot is written like an op's): a copy of a
    folder under another name would silently replace the first's stub and reference."""
    original = next(e for e in exercises.values() if e.kind == kind)
    copy = unused(f"{original.id}-again", FOLDERS)
    shutil.copytree(course / original.id, course / copy)
    first, second = (course / name for name in sorted((original.id, copy)))
    refused(
        course,
        f"^{re.escape(str(first))} and {re.escape(str(second))} are both the "
        f"`{original.ops[0]}` exercise of the {original.design} design: a design has one tab "
        "per op, so delete one of the two folders$",
    )


def test_an_op_exercise_needs_its_reference(course):
    (course / "add" / ".meta" / "solution.py").write_text("")
    refused(course, r"add/.meta/solution.py: the reference is missing")


def authoring_block(first_line):
    """The fenced block of AUTHORING.md whose first line is `first_line`."""
    text = (EXERCISES_DIR.parent / "AUTHORING.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```(?:toml|python)\n(.*?)^```$", text, re.S | re.M)
    return next(block for block in blocks if block.startswith(first_line))


def test_authoring_s_op_exercise_example_is_one_that_works(course):
    """Its three files, copied as an instructor would, make an exercise whose reference passes
    and whose stub does not."""
    folder = course / "mul"
    (folder / "exercise.toml").write_text(authoring_block("# exercises/mul/exercise.toml"))
    (folder / "stub.py").write_text(authoring_block("# exercises/mul/stub.py"))
    solution = authoring_block("# exercises/mul/.meta/solution.py")
    (folder / ".meta" / "solution.py").write_text(solution)
    (folder / ".meta" / "wrong_answers.toml").unlink()
    catalog = load_catalog(course)
    assert catalog["mul"].kind == "op" and len(catalog["mul"].hints) == 3
    assert grade("mul", catalog["mul"].solutions, catalog)["verdict"] == "pass"
    assert grade("mul", catalog["mul"].stubs, catalog)["verdict"] != "pass"
