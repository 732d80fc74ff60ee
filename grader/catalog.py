"""The exercises, read from `exercises/`: the single source of truth for site, browser and tests."""

import ast
import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .scaffold import SLOT_LABELS

EXERCISES_DIR = Path(__file__).resolve().parent.parent / "exercises"


class ExerciseError(ValueError):
    """An exercise folder that cannot be read: the message names the file and what is wrong."""


@dataclass(frozen=True)
class Check:
    """One graph to build, the gradient seeded into its output, and the grads to compare."""

    build: str
    leaves: dict
    grad: float
    names: tuple
    output: str  # the name of the output node in `build` ("out" for a lone expression)


@dataclass(frozen=True)
class Mistake:
    """A known-wrong answer: the bodies to grade and the explanations they must get."""

    name: str
    explains: tuple
    bodies: dict


@dataclass(frozen=True)
class Exercise:
    id: str
    label: str
    slots: tuple
    prompt: str
    hints: tuple
    why: str
    checks: tuple
    stubs: dict
    solutions: dict
    mistakes: tuple  # known-wrong answers, each a Mistake
    version: str

    @property
    def is_op(self):
        """True for an exercise on one op's closure; False for one on whole graphs (diamond)."""
        return self.slots == (self.id,)

    @property
    def test_code(self):
        """The Python a learner reads for an exercise that checks whole graphs."""
        return "" if self.is_op else "\n\n".join(_readable(check) for check in self.checks)


def _readable(check):
    given = "\n".join(f"{name} = Value({value!r})" for name, value in check.leaves.items())
    grads = ", ".join(f"{name}.grad" for name in check.names)
    return f"{given}\n{check.build}\n{check.output}.backward()\n# checked: {grads}"


def _output(build, path):
    """The node a build ends on: the name its last line assigns, or "out" for one expression."""
    try:
        body = ast.parse(build).body
    except SyntaxError as error:
        raise ExerciseError(f"{path}: the check `{build}` is not Python: {error.msg}") from error
    last = body[-1] if body else None
    if isinstance(last, ast.Assign) and isinstance(last.targets[0], ast.Name):
        return last.targets[0].id
    if len(body) == 1 and isinstance(last, ast.Expr):
        return "out"
    raise ExerciseError(f"{path}: the check `{build}` must end by assigning its output")


def _check(table, path):
    table = dict(table)
    build = table.pop("build").strip()
    grad = float(table.pop("grad", 1.0))
    names = table.pop("check", None)
    leaves = {name: float(value) for name, value in table.items()}
    return Check(build, leaves, grad, tuple(names or leaves), _output(build, path))


def _read(path):
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _toml(path):
    try:
        return tomllib.loads(_read(path))
    except tomllib.TOMLDecodeError as error:
        raise ExerciseError(f"{path}: {error}") from error


def _slots(folder, spec):
    slots = tuple(spec.get("slots", [folder.name]))
    unknown = [slot for slot in slots if slot not in SLOT_LABELS]
    if unknown:
        raise ExerciseError(
            f"{folder / 'exercise.toml'}: no slot {', '.join(unknown)} in the Value class; "
            f"an exercise that is not an op lists the slots it runs, from {', '.join(SLOT_LABELS)}"
        )
    return slots


def _load(folder, stubs, solutions):
    spec = _toml(folder / "exercise.toml")
    missing = [key for key in ("label", "prompt", "checks") if key not in spec]
    if missing:
        raise ExerciseError(f"{folder / 'exercise.toml'}: {', '.join(missing)} missing")
    mistakes = _toml(folder / ".meta" / "mistakes.toml").get("mistake", [])
    slots = _slots(folder, spec)
    version = hashlib.sha256(
        repr((spec, [stubs[slot] for slot in slots])).encode()
    ).hexdigest()[:12]
    return Exercise(
        id=folder.name,
        label=spec["label"],
        slots=slots,
        prompt=spec["prompt"].strip(),
        hints=tuple(spec.get("hints", ())),
        why=spec.get("why", "").strip(),
        checks=tuple(_check(table, folder / "exercise.toml") for table in spec["checks"]),
        stubs={slot: stubs[slot] for slot in slots},
        solutions={slot: solutions[slot] for slot in slots},
        mistakes=tuple(
            Mistake(m["name"], tuple(m["explains"].split()),
                    {slot: solutions[slot] for slot in slots}
                    | (m.get("bodies") or {folder.name: m["body"]}))
            for m in mistakes
        ),
        version=version,
    )


def _tab_order(folder):
    """The op exercises in the scaffold's order, then every other exercise by name."""
    ops = list(SLOT_LABELS)
    return (ops.index(folder.name), "") if folder.name in ops else (len(ops), folder.name)


def load_catalog(root=EXERCISES_DIR):
    """Every exercise of `root` (a folder with an exercise.toml), in tab order: `{id: Exercise}`."""
    root = Path(root)
    stubs = {slot: _read(root / slot / "stub.py") for slot in SLOT_LABELS}
    solutions = {slot: _read(root / slot / ".meta" / "solution.py") for slot in SLOT_LABELS}
    folders = sorted((toml.parent for toml in root.glob("*/exercise.toml")), key=_tab_order)
    return {folder.name: _load(folder, stubs, solutions) for folder in folders}
