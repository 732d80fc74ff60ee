"""The maintainers' table: every reference, stub and known-wrong answer through the grader.

Run `python -m grader`; exits 1 when any answer gets a verdict or explanation it should not.
"""

import sys

from .catalog import load_catalog
from .grade import grade


def expectations(exercises):
    """`(exercise, answer name, bodies, verdict wanted, explanations wanted)` for every answer."""
    for exercise in exercises.values():
        yield exercise, "reference solution", exercise.solutions, "pass", ()
        yield exercise, "starter stub", exercise.stubs, "fail", ("nothing",)
        for mistake in exercise.mistakes:
            yield exercise, mistake.name, mistake.bodies, "fail", mistake.explains


def explanations(result):
    """The explanation keys that the result's wrong rows carry, each once."""
    return tuple(dict.fromkeys(key for row in result["checks"] for key in row["mistakes"]))


def main():
    exercises = load_catalog()
    failures = 0
    print(f"{'exercise':9} {'answer':38} {'verdict':8} {'explained as':28} ok")
    for exercise, name, bodies, verdict, wanted in expectations(exercises):
        result = grade(exercise.id, bodies, exercises)
        got = explanations(result)
        ok = result["verdict"] == verdict and got == tuple(wanted)
        failures += not ok
        shown = " ".join(got) or "-"
        print(f"{exercise.id:9} {name:38} {result['verdict']:8} {shown:28} {'yes' if ok else 'NO'}")
    print(f"\n{failures} answers graded other than expected." if failures else "\nAll as expected.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
