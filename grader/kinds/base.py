"""What every kind of exercise shares: the records the catalog holds (`Exercise`, `Check`,
`KnownWrong`), the `Kind` record that says what is a kind's own, and the helpers that read and
check exercise.toml and wrong_answers.toml. grader/kinds/registry.py lists the kinds."""

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from runner.assembly import bodies as door
from runner.assembly import is_stub
from runner.checks import build_graph

from .. import answer_key, checker
from ..diagnosis.explain import DIAGNOSES

TEXT_KEYS = {
    "label": str,
    "prompt": str,
    "why": str,
    "design": str,
    "kind": str,
    "worked": str,
    "example": str,
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
    # what its Kind says, for modules the kinds import (grader/diagnosis/diagnose.py,
    # grader/present.py), which cannot import the registry to ask it: set by `Kind.exercise`
    op_tab: bool = False
    needs_op_tabs: bool = False

    @property
    def test_code(self):
        """The Python a learner reads for an exercise on whole graphs (else "")."""
        return "" if self.kind != "graph" else "\n\n".join(map(_readable, self.checks))


def _readable(check):
    given = "\n".join(f"{name} = Value({value!r})" for name, value in check.leaves.items())
    grads = ", ".join(f"{name}.grad" for name in check.names)
    return f"{given}\n{check.build}\n{check.output}.backward()\n# checked: {grads}"


@dataclass(frozen=True)
class Kind:
    """One kind of exercise (`kind = "..."` in exercise.toml): everything that differs by kind,
    so that the loader, the judge, the runner's data and the widget's data ask it rather than
    compare the kind's name."""

    name: str
    keys: frozenset  # the keys its exercise.toml may have
    required: tuple  # those it must have
    spec: Callable  # (path, spec with its design) -> the spec checked, in the catalog's types
    make: Callable  # (folder, spec, codes) -> its Exercise; codes: {design: {op: (stub, ref)}}
    judge: Callable  # (exercise, bodies, observation, catalog, told) -> grader/result.py Result
    runner: Callable  # exercise -> its entry of the runner's data (grader/runner_data.py)
    widget: Callable  # (exercise, catalog) -> what its widget data has beside every tab's
    # how the maintainers' table names its starting code, and the diagnoses that code gets
    starter: tuple = ("starter stub", ("nothing",))
    writes_op: bool = False  # its folder's stub.py and .meta/solution.py are one slot's code
    op_tab: bool = False  # a design's tab for one op: its code is that op's in the Value class
    needs_op_tabs: bool = False  # runs the op tabs' code: a page shows those tabs before it
    check_graphs: bool = True  # its checks are graphs the page draws (course/check_graphs.py)
    # what a sealed run keeps of the design's reference code: "used" (the ops its checks use),
    # "all" (the whole class) or "none" (no class)
    references: str = "used"
    # exercise -> the storage key of a tab whose code is one whole, not its ops' codes
    # (grader/handin.py `exercise_code_key`, widget/src/exercise/kinds.js `ownKey`); None where
    # the tab's code is kept under its op's key
    own_key: Callable | None = None
    rungs: bool = True  # its words say more at the formula rung (grader/cli/transcript.py)
    functions: bool = False  # its slot is plain functions, not a Value class's methods
    # where a maintainer fixes a reference solution its checks refuse, if not its op tabs'
    # (course/exercise_checks.py)
    solution_from: str = ""

    def exercise(self, folder, spec, codes):
        """Its Exercise (`make`'s), carrying the flags that grader/diagnosis/diagnose.py and
        grader/present.py read: the kinds import those modules, so those cannot import the
        registry (an import circle) and read the Exercise's copy instead."""
        made = self.make(folder, spec, codes)
        return replace(made, op_tab=self.op_tab, needs_op_tabs=self.needs_op_tabs)


def known_keys(path, table, allowed, what, where=""):
    import difflib  # reading exercises only: the judge in the browser imports the built catalog

    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f"; did you mean `{close[0]}`?" if close else ""
            raise ExerciseError(f"{path}: unknown {what} `{key}`{where}{hint}")


def check_of(table, path):
    """One `[[checks]]` table of exercise.toml as a Check, every key and name checked."""
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


def computable(check, path):
    """A check the answer key can compute: its build runs, and every gradient is a number."""
    try:
        nodes, _ = answer_key.answer(check)
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


def known_wrong(folder, spec, solutions):
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
        unknown = [key for key in diagnoses if key not in DIAGNOSES | checker.DIAGNOSES]
        if unknown:
            raise ExerciseError(
                f"{path}: unknown diagnosis {', '.join(unknown)} "
                f"(the keys are in grader/diagnosis/explain.py)"
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


def written(exercise, bodies):
    """`(theirs, stubs)`: the learner's code for each of the exercise's slots (its starter code
    where `bodies` has no text for it), and the slots still at their starter code."""
    theirs = door(bodies, exercise.stubs)
    return theirs, [op for op in exercise.ops if is_stub(theirs[op], exercise.stubs[op])]
