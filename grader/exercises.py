"""The exercises, read from `exercises/`: the single source of truth for site, browser and tests.

Each folder with an `exercise.toml` is an exercise, loaded into the frozen dataclasses below.
Anything the format does not know (a misspelt key, a number that no check uses) is an error
that names the file and the key. AUTHORING.md describes the format.
"""

import ast
import math
import pickle
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from runner.checks import build_graph

from . import checker
from .ops import CLOSURES, OPS, ops_of
from .scaffold import DESIGNS

EXERCISES_DIR = Path(__file__).resolve().parent.parent / "exercises"
# In grader.zip only (course/assets.py): the catalog as the build read it. Reading and checking
# every exercise again cost the browser's judge ~70 ms of Pyodide before its first verdict.
BUILT_CATALOG = Path(__file__).with_name("catalog.pickle")
KINDS = ("op", "graph", "checker", "engine")
TEXT_KEYS = {
    "label": str,
    "prompt": str,
    "why": str,
    "design": str,
    "kind": str,
    "worked": str,
    "example": str,
}
KEYS = {
    "op": {
        "kind",
        "op",
        "design",
        "label",
        "prompt",
        "hints",
        "why",
        "checks",
        "worked",
        "example",
    },
    "graph": {"kind", "ops", "design", "label", "prompt", "hints", "why", "checks"},
    "checker": checker.KEYS,
    # a whole engine with one planted bug (grader/engine.py): `bug` plants it in the course's
    # engine, `ops` are those its random graphs draw, `train` runs its training loop, `breaks`
    # names the training page's Break-it switch that plants the same bug
    "engine": {
        "kind",
        "ops",
        "label",
        "prompt",
        "hints",
        "why",
        "checks",
        "bug",
        "train",
        "breaks",
    },
}
REQUIRED = {
    "op": ("kind", "op", "prompt", "checks"),
    "graph": ("kind", "ops", "label", "prompt", "checks"),
    "checker": checker.REQUIRED,
    "engine": ("kind", "ops", "label", "prompt", "checks", "bug"),
}
CHECK_KEYS = {"build", "grad", "check"}
ANSWER_KEYS = {"name", "diagnoses", "body", "bodies"}


class ExerciseError(ValueError):
    """An exercise folder that cannot be read: the message names the file and what is wrong."""


@dataclass(frozen=True)
class Check:
    """One graph to build, the gradient seeded into its output, and the grads to compare."""

    build: str  # Python: one expression, or statements whose last line assigns the output
    leaves: dict  # name -> number: each becomes a leaf Value
    grad: float  # seeded into the output
    names: tuple  # the nodes whose grads are compared
    output: str  # the name of the output node ("out" for a lone expression)

    def graph(self, make):
        """Builds the graph from leaves made by `make(value, name)`: `(output, space)` (see
        runner/checks.py)."""
        return build_graph(self.build, self.leaves, self.output, make)


@dataclass(frozen=True)
class KnownWrong:
    """A known-wrong answer: the bodies to grade and the diagnoses they must get."""

    name: str
    diagnoses: tuple
    bodies: dict  # op -> body, for every op the exercise runs


@dataclass(frozen=True)
class Exercise:
    id: str
    kind: str  # "op": one op's slot; "graph": whole graphs through several ops' slots;
    # "checker": the learner's gradient checker (grader/checker.py), its checks CheckerChecks
    design: str  # the class design: "closures" or "local_grads"
    label: str
    ops: tuple  # the slots the learner writes (one for an op exercise)
    prompt: str  # Markdown, like hints and why
    hints: tuple
    why: str
    checks: tuple
    stubs: dict  # op -> starter code
    solutions: dict  # op -> reference body
    known_wrong: tuple
    version: str  # changes whenever the definition does
    worked: str = ""  # the title of the earliest page that works its rule out, if one does
    example: str = ""  # the title of the page that shows its answer worked through, if one does
    draws: tuple = ()  # an engine tab: the ops of its random graphs (grader/engine.py)
    train: tuple = ()  # an engine tab with a training loop: its own run's items (w, b, ...)
    breaks: str = ""  # an engine tab: the training page's Break-it switch of the same bug
    fix: tuple = ()  # an engine tab: its fix as a diff, shown on request (grader/bug_diff.py)

    @property
    def test_code(self):
        """The Python a learner reads for an exercise on whole graphs (else "")."""
        return "" if self.kind != "graph" else "\n\n".join(map(_readable, self.checks))


def _readable(check):
    given = "\n".join(f"{name} = Value({value!r})" for name, value in check.leaves.items())
    grads = ", ".join(f"{name}.grad" for name in check.names)
    return f"{given}\n{check.build}\n{check.output}.backward()\n# checked: {grads}"


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
    first = exercise.ops[0] if exercise.kind == "op" else None
    return (exercise.design != CLOSURES, order.index(first) if first else len(order), exercise.id)


def _spec(path):
    """exercise.toml, its keys and their types checked: a new dict, the file's values in the
    types the catalog keeps (tuples, the design named)."""
    spec = read_toml(path)
    kind = spec.get("kind")
    if kind not in KINDS:
        raise ExerciseError(f"{path}: `kind` must be one of {', '.join(KINDS)}, not {kind!r}")
    known_keys(path, spec, KEYS[kind], "key")
    missing = [key for key in REQUIRED[kind] if key not in spec]
    if missing:
        raise ExerciseError(f"{path}: {', '.join(missing)} missing")
    for key, kind_of in TEXT_KEYS.items():
        if key in spec and not isinstance(spec[key], kind_of):
            raise ExerciseError(f"{path}: `{key}` must be text")
    design = spec.get("design", CLOSURES)
    if design not in DESIGNS:
        raise ExerciseError(f"{path}: no design {design!r}; there are {', '.join(DESIGNS)}")
    if kind == "checker":
        return checker.checker_spec(path, spec | {"design": design}, ExerciseError)
    ops = [spec["op"]] if kind == "op" else spec["ops"]
    if not isinstance(ops, list) or not ops or not all(isinstance(op, str) for op in ops):
        raise ExerciseError(f"{path}: `ops` must list op names")
    names = [op.name for op in ops_of(design)]
    unknown = [op for op in ops if op not in names]
    if unknown:
        raise ExerciseError(
            f"{path}: no op {', '.join(unknown)} in the {design} Value class; "
            f"it has {', '.join(names)} (an op is added in grader/ops.py)"
        )
    hints = spec.get("hints", [])
    if not isinstance(hints, list) or not all(isinstance(hint, str) for hint in hints):
        raise ExerciseError(f"{path}: `hints` must be a list of texts")
    if not isinstance(spec["checks"], list) or not spec["checks"]:
        raise ExerciseError(f"{path}: `checks` must list at least one check")
    checks = tuple(_check(table, path) for table in spec["checks"])
    checked = spec | {"design": design, "ops": tuple(ops), "checks": checks}
    if kind == "engine":
        from .engine import engine_spec  # the engine kind's own keys

        return engine_spec(checked, path)
    return checked


def known_keys(path, table, allowed, what, where=""):
    import difflib  # reading exercises only: the judge in the browser imports the built catalog

    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f"; did you mean `{close[0]}`?" if close else ""
            raise ExerciseError(f"{path}: unknown {what} `{key}`{where}{hint}")


def _check(table, path):
    if not isinstance(table, dict) or not isinstance(table.get("build"), str):
        raise ExerciseError(f"{path}: every check needs a `build` (Python, as text)")
    build = table["build"].strip()
    last = build.splitlines()[-1] if build else ""
    where = f" in the check `{last}`"
    used = _names(build, path)
    for key, value in table.items():
        if key in CHECK_KEYS:
            continue
        known_keys(path, {key: value}, CHECK_KEYS | used, "key", where)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ExerciseError(f"{path}: the leaf `{key}`{where} must be a number")
    leaves = {key: float(value) for key, value in table.items() if key not in CHECK_KEYS}
    not_given = sorted(used - set(leaves))
    if not_given:
        raise ExerciseError(
            f"{path}: the check `{last}` reads {_listed(not_given)}, which it does not give: "
            f"add `{not_given[0]} = <number>` to it"
        )
    grad = table.get("grad", 1.0)
    if isinstance(grad, bool) or not isinstance(grad, (int, float)):
        raise ExerciseError(f"{path}: `grad`{where} must be a number")
    names = table.get("check", list(leaves))
    space = set(leaves) | _assigned(build)
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ExerciseError(f"{path}: `check`{where} must list names the check defines")
    unknown = [name for name in names if name not in space]
    if unknown:
        raise ExerciseError(
            f"{path}: `check`{where} names {_listed(unknown)}, which the check does not define; "
            f"it defines {_listed(sorted(space))}"
        )
    return Check(build, leaves, float(grad), tuple(names), _output(build, path))


def _listed(names):
    return ", ".join(f"`{name}`" for name in names)


def _names(build, path):
    try:
        tree = ast.parse(build)
    except SyntaxError as error:
        raise ExerciseError(f"{path}: the check `{build}` is not Python: {error.msg}") from error
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} - _assigned(build)


def _assigned(build):
    tree = ast.parse(build)
    return {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _output(build, path):
    """The node a build ends on: the name its last line assigns (`g = ...` or `g += ...`), or
    "out" for one expression."""
    body = ast.parse(build).body
    last = body[-1] if body else None
    target = last.targets[0] if isinstance(last, ast.Assign) else getattr(last, "target", None)
    if isinstance(last, ast.Assign | ast.AugAssign) and isinstance(target, ast.Name):
        return target.id
    if len(body) == 1 and isinstance(last, ast.Expr):
        return "out"
    raise ExerciseError(f"{path}: the check `{build}` must end by assigning its output")


def _op_code(root, specs):
    """`{design: {op: (stub, solution)}}` from the op exercises' folders."""
    codes = {design: {} for design in DESIGNS}
    owner = {}  # (design, op) -> the folder that writes it
    for name, spec in specs.items():
        if spec["kind"] in ("op", "checker"):  # a checker's one slot is written like an op's
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
    if spec["kind"] == "engine":
        from .engine import engine_exercise

        return engine_exercise(folder, spec, codes)
    design = spec["design"]
    missing = [op for op in spec["ops"] if op not in codes[design]]
    if missing:
        raise ExerciseError(
            f"{folder / 'exercise.toml'}: no op exercise of the {design} design for "
            f"{', '.join(missing)}: its stub and reference come from there"
        )
    for check in spec["checks"] if spec["kind"] != "checker" else ():  # checker.py computed its
        _computable(check, folder / "exercise.toml")
    stubs = {op: codes[design][op][0] for op in spec["ops"]}
    solutions = {op: codes[design][op][1] for op in spec["ops"]}
    # what is graded: a change of words (prompt, hints, label) keeps a learner's passed mark
    graded = [spec[key] for key in ("kind", "design", "ops", "checks")]
    import hashlib  # as difflib in known_keys

    version = hashlib.sha256(repr((graded, stubs)).encode()).hexdigest()[:12]
    return Exercise(
        id=folder.name,
        kind=spec["kind"],
        design=design,
        label=spec.get("label") or OPS[spec["ops"][0]].label,
        ops=spec["ops"],
        prompt=spec["prompt"].strip(),
        hints=tuple(spec.get("hints", ())),
        why=spec.get("why", "").strip(),
        checks=spec["checks"],
        stubs=stubs,
        solutions=solutions,
        known_wrong=_known_wrong(folder, spec, solutions),
        version=version,
        worked=spec.get("worked", ""),
        example=spec.get("example", ""),
    )


def _computable(check, path):
    """A check the answer key can compute: its build runs, and every gradient is a number."""
    from .answer_key import answer  # here: the answer key needs the ops, not the exercises

    try:
        nodes, _ = answer(check)
    except Exception as error:  # noqa: BLE001 - an instructor's build may raise anything
        raise ExerciseError(
            f"{path}: the check `{check.build.splitlines()[-1]}` cannot be computed: "
            f"{type(error).__name__}: {error}"
        ) from None
    if not all(math.isfinite(node.grad) and math.isfinite(node.data) for node in nodes):
        raise ExerciseError(
            f"{path}: the check `{check.build.splitlines()[-1]}` gives a value or gradient that "
            "is not a finite number: choose other inputs"
        )


def _known_wrong(folder, spec, solutions):
    path = folder / ".meta" / "wrong_answers.toml"
    answers = read_toml(path).get("answer", []) if path.exists() else []
    found = []
    for answer in answers:
        known_keys(path, answer, ANSWER_KEYS, "key")
        bodies = answer.get("bodies") or (
            {spec["ops"][0]: answer["body"]} if "body" in answer else {}
        )
        if not bodies or set(bodies) - set(spec["ops"]):
            raise ExerciseError(
                f"{path}: answer {answer.get('name')!r} needs a `body`, or "
                f"`bodies` for ops among {', '.join(spec['ops'])}"
            )
        diagnoses = answer.get("diagnoses", [])
        from .explain import DIAGNOSES  # here: explain needs the ops, not the exercises

        unknown = [key for key in diagnoses if key not in DIAGNOSES | checker.DIAGNOSES]
        if unknown:
            raise ExerciseError(
                f"{path}: unknown diagnosis {', '.join(unknown)} "
                f"(the keys are in grader/explain.py)"
            )
        found.append(KnownWrong(answer.get("name", "?"), tuple(diagnoses), solutions | bodies))
    return tuple(found)


def read_text(path):
    return path.read_text(encoding="utf-8") if path.exists() else ""


def read_toml(path):
    import tomllib  # as difflib in known_keys

    try:
        return tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as error:
        raise ExerciseError(f"{path}: {error}") from error


def expectations(exercises):
    """`(exercise, answer name, bodies, should pass, diagnoses wanted)` for every answer."""
    for exercise in exercises.values():
        yield exercise, "reference solution", exercise.solutions, True, ()
        if exercise.kind == "engine":  # its starting code is the engine with its bug
            yield exercise, "the engine as shipped", exercise.stubs, False, ()
        else:
            yield exercise, "starter stub", exercise.stubs, False, ("nothing",)
        for answer in exercise.known_wrong:
            yield exercise, answer.name, answer.bodies, False, answer.diagnoses
