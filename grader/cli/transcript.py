"""Golden transcripts: every sentence the grader shows for each known answer, kept beside the
exercise (`exercises/<id>/.meta/transcript.txt`), so that a change of words is a diff someone
reviews. `python -m grader --write-transcripts` writes them; the maintainers' table and the
tests compare them.

A failing answer is said twice (grader/disclosure.py): below the formula rung, as a learner who
has not asked for the rule reads it, and at the formula rung (its section's name ends in
FORMULA_RUNG), with every op's rule told.
"""

from pathlib import Path

from ..kinds.registry import kind_of

HEADER = (
    "# What the learner reads for each known answer of `{id}`; written by\n"
    "# `python -m grader --write-transcripts`, compared by `python -m grader` and the tests.\n"
)


FORMULA_RUNG = ", at the formula rung"


def sides(exercise, name, should_pass):
    """`[(section name, told)]` of an answer: a passing answer's words do not depend on it."""
    below = [(name, ())]
    if should_pass or not kind_of(exercise).rungs:
        return below
    return [*below, (name + FORMULA_RUNG, exercise.ops)]


def transcript(result):
    """The learner-visible words of a result (a dict), one line each."""
    said = [f"verdict: {result['verdict']}", f"summary: {result['summary']}"]
    error = result.get("error")
    if error and error.get("text") and error["text"] != result["summary"]:
        said.append(f"error: {error['text']}")
    if result.get("diagnosis"):
        said.append(f"diagnosis: {result['diagnosis']}")
    for culprit in result.get("culprits", []):
        said.append(f"culprit {culprit['label']}: {culprit['sentence'] or '-'}")
    for number, check in enumerate(result.get("checks", []), 1):
        failing = [row for row in check["rows"] if not row["passed"]]
        if not failing:
            continue
        said.append(f"check {number}: {check['built']} (given {check['given']})")
        for row in failing:
            got, expected = row["got_text"], row["expected_text"]
            said.append(f"  {row['value']}: {got}, expected {expected}. {row['why']}")
        notes = [step["note"] for step in check.get("steps", []) if step.get("note")]
        said += [f"  step note: {note}" for note in notes]
    return "\n".join(said)


def document(exercise, results):
    """The transcript file of an exercise: `results` maps each answer's name to its result."""
    sections = [f"## {name}\n{transcript(result)}\n" for name, result in results.items()]
    return HEADER.format(id=exercise.id) + "\n" + "\n".join(sections)


def path(exercise, root):
    return Path(root) / exercise.id / ".meta" / "transcript.txt"


def sections(text):
    """`{answer name: its transcript}` of a transcript file."""
    found = {}
    for part in text.split("\n## ")[1:]:
        name, _, body = part.partition("\n")
        found[name] = body.strip("\n")
    return found
