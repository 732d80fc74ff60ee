"""The maintainers' table: every reference, stub and known-wrong answer through the grader,
each in a process of its own (grader/isolated.py).

Run `python -m grader`; exits 1 when any answer gets a verdict or diagnosis it should not.
"""

import sys
from concurrent.futures import ThreadPoolExecutor
from os import cpu_count

from .exercises import load_catalog
from .isolated import grade_isolated
from .runner_data import runner_data


def expectations(exercises):
    """`(exercise, answer name, bodies, should pass, diagnoses wanted)` for every answer."""
    for exercise in exercises.values():
        yield exercise, "reference solution", exercise.solutions, True, ()
        yield exercise, "starter stub", exercise.stubs, False, ("nothing",)
        for answer in exercise.known_wrong:
            yield exercise, answer.name, answer.bodies, False, answer.diagnoses


def as_expected(result, should_pass, wanted):
    """True when a result has the verdict and the diagnoses its answer should get."""
    passed = result["verdict"] == "pass"
    return passed == should_pass and tuple(result["diagnoses"]) == tuple(wanted)


def graded(exercises):
    """Every expectation with its result, grading in parallel."""
    answers = list(expectations(exercises))
    known = runner_data(exercises)
    with ThreadPoolExecutor(max_workers=cpu_count() or 2) as pool:
        results = pool.map(lambda a: grade_isolated(a[0].id, a[2], exercises, known), answers)
        return list(zip(answers, results, strict=True))


def main():
    failures = 0
    print(f"{'exercise':12} {'answer':40} {'verdict':8} {'diagnosed as':28} ok")
    for (exercise, name, _, should_pass, wanted), result in graded(load_catalog()):
        ok = as_expected(result, should_pass, wanted)
        failures += not ok
        shown = " ".join(result["diagnoses"]) or "-"
        print(
            f"{exercise.id:12} {name:40} {result['verdict']:8} {shown:28} {'yes' if ok else 'NO'}"
        )
    print(f"\n{failures} answers graded other than expected." if failures else "\nAll as expected.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
