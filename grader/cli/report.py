"""The maintainers' table: every reference, stub and known-wrong answer through the grader,
each in a process of its own (grader/cli/isolated.py), its verdict, its diagnoses and its words
(grader/cli/transcript.py) held to what they should be.

`python -m grader` exits 1 when any answer is graded other than expected;
`python -m grader --write-transcripts` writes each exercise's golden transcript instead.
"""

import sys
from concurrent.futures import ThreadPoolExecutor
from os import cpu_count

from ..exercises import EXERCISES_DIR, ExerciseError, expectations, load_catalog
from ..runner_data import runner_data
from . import transcript
from .isolated import grade_isolated_sides


def as_expected(result, should_pass, wanted):
    """True when a result has the verdict and the diagnoses its answer should get."""
    passed = result["verdict"] == "pass"
    return passed == should_pass and tuple(result["diagnoses"]) == tuple(wanted)


def graded(exercises):
    """Every expectation with its results, `{section name: result}` for each side of the
    formula rung (grader/cli/transcript.py), grading in parallel."""
    answers = list(expectations(exercises))
    known = runner_data(exercises)

    def grade(answer):
        exercise, name, bodies, should_pass, _ = answer
        sides = transcript.sides(exercise, name, should_pass)
        told = [ops for _, ops in sides]
        results = grade_isolated_sides(exercise.id, bodies, exercises, known, told)
        return {section: result for (section, _), result in zip(sides, results, strict=True)}

    with ThreadPoolExecutor(max_workers=cpu_count() or 2) as pool:
        return list(zip(answers, pool.map(grade, answers), strict=True))


def write_transcripts(rows, exercises, root=EXERCISES_DIR):
    """Writes each exercise's golden transcript from its graded rows."""
    results = {}
    for (exercise, *_), sides in rows:
        results.setdefault(exercise.id, {}).update(sides)
    for exercise_id, found in results.items():
        file = transcript.path(exercises[exercise_id], root)
        file.write_text(transcript.document(exercises[exercise_id], found))
        print(f"wrote {file.relative_to(root.parent)}")
    return 0


def golden(exercise, root=EXERCISES_DIR):
    """The exercise's golden transcript, by answer name (empty when it has none yet)."""
    file = transcript.path(exercise, root)
    return transcript.sections(file.read_text()) if file.exists() else {}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        exercises = load_catalog()
    except ExerciseError as error:
        print(error, file=sys.stderr)
        return 1
    rows = graded(exercises)
    if argv == ["--write-transcripts"]:
        return write_transcripts(rows, exercises)
    failures = 0
    goldens = {}
    print(f"{'exercise':12} {'answer':40} {'verdict':8} {'diagnosed as':28} ok")
    for (exercise, name, _, should_pass, wanted), sides in rows:
        said = goldens.setdefault(exercise.id, golden(exercise))
        words = all(said.get(s) == transcript.transcript(r) for s, r in sides.items())
        result = sides[name]
        ok = as_expected(result, should_pass, wanted) and words
        failures += not ok
        shown = " ".join(result["diagnoses"]) or "-"
        print(
            f"{exercise.id:12} {name:40} {result['verdict']:8} {shown:28} {'yes' if ok else 'NO'}"
        )
        if not as_expected(result, should_pass, wanted):
            verdict = "pass" if should_pass else "not pass"
            print(f"{'':12} wanted: {verdict}, diagnosed as {' '.join(wanted) or '-'}")
        elif not words:
            print(f"{'':12} its words differ from .meta/transcript.txt (--write-transcripts)")
    if failures:
        print(f"\n{failures} answers graded other than expected.")
        return 1
    print("\nAll as expected.")
    return 0
