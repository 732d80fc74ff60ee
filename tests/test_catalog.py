"""Instructors add exercises as folders; the catalog finds them and says what is wrong."""

import shutil

import pytest

from grader import grade
from grader.catalog import EXERCISES_DIR, ExerciseError, load_catalog

NEURON = '''
label = "neuron"
slots = ["add", "mul", "tanh"]
prompt = "A neuron with two inputs."
[[checks]]
build = "o = (x1 * w1 + x2 * w2 + b).tanh()"
x1 = 1.0
x2 = -2.0
w1 = 0.5
w2 = 0.25
b = 0.1
'''


@pytest.fixture
def course(tmp_path):
    root = tmp_path / "exercises"
    shutil.copytree(EXERCISES_DIR, root)
    return root


def add(course, name, spec):
    """An instructor's new folder `name` with `spec` as its exercise.toml."""
    (course / name).mkdir(exist_ok=True)
    (course / name / "exercise.toml").write_text(spec)


def test_a_new_folder_is_a_new_exercise_after_the_ops(course, exercises):
    add(course, "neuron", NEURON)
    catalog = load_catalog(course)
    assert list(catalog) == ["add", "mul", "pow", "tanh", "exp", "diamond", "neuron"]
    bodies = {slot: exercises[slot].solutions[slot] for slot in ("add", "mul", "tanh")}
    assert grade("neuron", bodies, catalog)["verdict"] == "pass"
    wrong = dict(bodies, tanh="self.grad = (1 - out.data**2) * out.grad\nself.grad += 1")
    assert grade("neuron", wrong, catalog)["verdict"] == "fail"
    stubbed = grade("neuron", dict(bodies, tanh=""), catalog)
    assert "Still the starter stub: tanh." in stubbed["summary"]
    assert "o.backward()" in catalog["neuron"].test_code


def test_a_missing_key_names_the_file_and_the_key(course):
    add(course, "neuron", 'label = "neuron"\nslots = ["add"]\n')
    with pytest.raises(ExerciseError, match=r"neuron/exercise.toml: prompt, checks missing"):
        load_catalog(course)


def test_an_exercise_that_is_not_an_op_must_name_real_slots(course):
    add(course, "relu", NEURON.replace('["add", "mul", "tanh"]', '["relu"]'))
    with pytest.raises(ExerciseError, match="no slot relu in the Value class"):
        load_catalog(course)


def test_broken_toml_names_the_file(course):
    add(course, "add", "label = \n")
    with pytest.raises(ExerciseError, match=r"add/exercise.toml"):
        load_catalog(course)


def test_a_check_must_end_on_its_output(course):
    add(course, "neuron", NEURON.replace('build = "o = (', 'build = "o = x1; ('))
    with pytest.raises(ExerciseError, match="must end by assigning its output"):
        load_catalog(course)
