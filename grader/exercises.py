"""The exercises, read from `exercises/`: the single source of truth for site, browser and tests.

Each folder with an `exercise.toml` is an exercise, loaded into the frozen records of
grader/kinds/base.py; its `kind` (grader/kinds/registry.py) checks its keys and makes it.
Anything the format does not know (a misspelt key, a number that no check uses) is an error
that names the file and the key. AUTHORING.md describes the format.
"""

import pickle
from functools import cache
from pathlib import Path

from .kinds.base import (  # noqa: F401 - the catalog's records, where its readers find them
    TEXT_KEYS,
    Check,
    Exercise,
    ExerciseError,
    KnownWrong,
    known_keys,
    read_text,
    read_toml,
)
from .kinds.registry import KINDS
from .ops import CLOSURES, OPS
from .scaffold import DESIGNS

EXERCISES_DIR = Path(__file__).resolve().parent.parent / "exercises"
# In grader.zip only (course/assets.py): the catalog as the build read it. Reading and checking
# every exercise again cost the browser's judge ~70 ms of Pyodide before its first verdict.
BUILT_CATALOG = Path(__file__).with_name("catalog.pickle")


@cache
def catalog():
    """The exercises of `exercises/`, read once (in the browser, as the build read them)."""
    return _built_catalog() or load_catalog()


def _built_catalog():
    """The catalog grader.zip carries, read through this module's loader (the judge imports
    the grader from the archive itself); None beside the exercises' folders."""
    try:
        return pickle.loads(__loader__.get_data(str(BUILT_CATALOG)))
    except OSError:
        return None


def built_catalog(exercises):
    """`exercises` (a catalog) as grader.zip carries it."""
    return pickle.dumps(exercises, protocol=5)


def load_catalog(root=EXERCISES_DIR):
    """Every exercise of `root`, in tab order: `{id: Exercise}`."""
    root = Path(root)
    specs = {toml.parent.name: _spec(toml) for toml in sorted(root.glob("*/exercise.toml"))}
    codes = _op_code(root, specs)
    exercises = [_exercise(root / name, spec, codes) for name, spec in specs.items()]
    return {exercise.id: exercise for exercise in sorted(exercises, key=_tab_order)}


def _tab_order(exercise):
    order = list(OPS)
    first = exercise.ops[0] if KINDS[exercise.kind].op_tab else None
    return (exercise.design != CLOSURES, order.index(first) if first else len(order), exercise.id)


def _spec(path):
    """exercise.toml, its keys and their types checked: a new dict, the file's values in the
    types the catalog keeps (tuples, the design named)."""
    spec = read_toml(path)
    name = spec.get("kind")
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ExerciseError(f"{path}: `kind` must be one of {', '.join(KINDS)}, not {name!r}")
    known_keys(path, spec, kind.keys, "key")
    missing = [key for key in kind.required if key not in spec]
    if missing:
        raise ExerciseError(f"{path}: {', '.join(missing)} missing")
    for key, kind_of in TEXT_KEYS.items():
        if key in spec and not isinstance(spec[key], kind_of):
            raise ExerciseError(f"{path}: `{key}` must be text")
    design = spec.get("design", CLOSURES)
    if design not in DESIGNS:
        raise ExerciseError(f"{path}: no design {design!r}; there are {', '.join(DESIGNS)}")
    return kind.spec(path, spec | {"design": design})


def _op_code(root, specs):
    """`{design: {op: (stub, solution)}}` from the op exercises' folders."""
    codes = {design: {} for design in DESIGNS}
    owner = {}  # (design, op) -> the folder that writes it
    for name, spec in specs.items():
        if KINDS[spec["kind"]].writes_op:
            slot = (spec["design"], spec["ops"][0])
            if slot in owner:
                _two_tabs_for_one_op(root, sorted((owner[slot], name)), *slot)
            owner[slot] = name
            folder = root / name
            solution = read_text(folder / ".meta" / "solution.py")
            if not solution.strip():
                raise ExerciseError(f"{folder / '.meta' / 'solution.py'}: the reference is missing")
            if not (folder / "stub.py").is_file():
                raise ExerciseError(
                    f"{folder / 'stub.py'} is missing: the learner's editor starts from it "
                    "(write the comments they read first, or leave it empty)"
                )
            codes[spec["design"]][spec["ops"][0]] = (read_text(folder / "stub.py"), solution)
    return codes


def _two_tabs_for_one_op(root, names, design, op):
    """Two folders for one slot: the second would silently replace the first's stub and
    reference, and both tabs would keep the learner's code under the same key."""
    first, second = (root / name for name in names)
    raise ExerciseError(
        f"{first} and {second} are both the `{op}` exercise of the {design} design: "
        "a design has one tab per op, so delete one of the two folders"
    )


def _exercise(folder, spec, codes):
    return KINDS[spec["kind"]].exercise(folder, spec, codes)


def expectations(exercises):
    """`(exercise, answer name, bodies, should pass, diagnoses wanted)` for every answer."""
    for exercise in exercises.values():
        yield exercise, "reference solution", exercise.solutions, True, ()
        name, diagnoses = KINDS[exercise.kind].starter
        yield exercise, name, exercise.stubs, False, diagnoses
        for answer in exercise.known_wrong:
            yield exercise, answer.name, answer.bodies, False, answer.diagnoses
