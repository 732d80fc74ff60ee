"""The exercises, read from `exercises/`: the single source of truth for site, browser and tests."""

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .scaffold import SLOT_LABELS

EXERCISES_DIR = Path(__file__).resolve().parent.parent / "exercises"
ORDER = ("add", "mul", "pow", "tanh", "exp", "diamond")


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
    def test_code(self):
        """The Python a learner reads for an exercise that checks whole graphs (diamond)."""
        if self.slots != tuple(SLOT_LABELS):
            return ""
        return "\n\n".join(_readable(check) for check in self.checks)


def _readable(check):
    given = "\n".join(f"{name} = Value({value!r})" for name, value in check.leaves.items())
    grads = ", ".join(f"{name}.grad" for name in check.names)
    return f"{given}\n{check.build}\n{check.output}.backward()\n# checked: {grads}"


def _check(table):
    table = dict(table)
    build = table.pop("build")
    grad = float(table.pop("grad", 1.0))
    names = table.pop("check", None)
    leaves = {name: float(value) for name, value in table.items()}
    lines = build.strip().splitlines()
    output = lines[-1].split("=")[0].strip() if len(lines) > 1 else "out"
    return Check(build.strip(), leaves, grad, tuple(names or leaves), output)


def _read(path):
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _load(folder, stubs, solutions):
    spec = tomllib.loads(_read(folder / "exercise.toml"))
    mistakes = tomllib.loads(_read(folder / ".meta" / "mistakes.toml")).get("mistake", [])
    slots = tuple(spec.get("slots", [folder.name]))
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
        checks=tuple(_check(table) for table in spec["checks"]),
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


def load_catalog(root=EXERCISES_DIR):
    """Every exercise, in tab order: `{id: Exercise}`."""
    root = Path(root)
    stubs = {slot: _read(root / slot / "stub.py") for slot in SLOT_LABELS}
    solutions = {slot: _read(root / slot / ".meta" / "solution.py") for slot in SLOT_LABELS}
    return {name: _load(root / name, stubs, solutions) for name in ORDER}
