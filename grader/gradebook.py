"""What a regrade writes for a gradebook: one CSV row per learner, a column per exercise with
its points (an exercise's weight when it passes, else 0), in the form a gradebook imports; and
a feedback file per learner with the words the browser shows a learner below the formula
rung (grader/disclosure.py): the numbers and where to measure, never a rule.

Forms (HOSTING.md says how to import each):
- "plain": learner, file, a column per exercise, total, out of, notes.
- "canvas": Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then a
  column per exercise (a column Canvas does not know becomes a new assignment), and a "Points
  Possible" row under the header; no total (Canvas computes its own).
- "moodle": Moodle's CSV grade import: a column to map learners from, a column per exercise
  and the total, each mapped to a grade item on import.
"""

import csv
import re
from pathlib import Path

FORMS = ("plain", "canvas", "moodle")
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MARKS = {True: "✓", False: "✗"}


def points(graded, weights):
    """Each exercise's points for a hand-in: its weight when it passed, else 0."""
    return {
        name: weight if getattr(graded.tabs.get(name), "verdict", "") == "pass" else 0
        for name, weight in weights.items()
    }


def number(value):
    return f"{value:g}"


class Gradebook:
    """A CSV file of one form, a row written (and flushed) for each hand-in as it comes."""

    def __init__(self, path, form, weights):
        self.form, self.weights = form, weights
        self.file = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 - closed in close()
        self.writer = csv.writer(self.file)
        names = list(weights)
        if form == "canvas":
            self.writer.writerow([*CANVAS_IDENTITY, *names])
            empty = [""] * (len(CANVAS_IDENTITY) - 1)
            self.writer.writerow(["Points Possible", *empty, *map(number, weights.values())])
        elif form == "moodle":
            self.writer.writerow(["learner", *names, "total"])
        else:
            self.writer.writerow(["learner", "file", *names, "total", "out of", "notes"])
        self.file.flush()

    def add(self, graded):
        scores = points(graded, self.weights)
        cells = ["" if graded.problem else number(scores[name]) for name in self.weights]
        total = "" if graded.problem else number(sum(scores.values()))
        if self.form == "canvas":
            row = [graded.learner, "", "", "", "", *cells]
        elif self.form == "moodle":
            row = [graded.learner, *cells, total]
        else:
            notes = "; ".join([graded.problem] if graded.problem else graded.notes)
            out_of = number(sum(self.weights.values()))
            row = [graded.learner, graded.file, *cells, total, out_of, notes]
        self.writer.writerow(row)
        self.file.flush()

    def close(self):
        self.file.close()


def feedback(graded, exercises, weights):
    """A learner's feedback: each attempted exercise's verdict and points, then the words the
    browser shows below the formula rung (summary, diagnosis, each checked value and why): a
    work file does not say how far up a tab's ladder its learner climbed."""
    scores = points(graded, weights)
    lines = [f"Feedback for {graded.learner} ({Path(graded.file).name})", ""]
    if graded.problem:
        return "\n".join([*lines, f"This file could not be graded: {graded.problem}.", ""])
    total, out_of = sum(scores.values()), sum(weights.values())
    lines += [f"Total: {number(total)} of {number(out_of)} points", ""]
    for name, exercise in exercises.items():
        tab = graded.tabs.get(name)
        if tab is None:
            lines += [f"## {name} ({exercise.label}): not attempted", ""]
            continue
        lines += [f"## {name} ({exercise.label}): {tab.verdict}, {number(scores[name])} points"]
        lines += [tab.summary, *([tab.diagnosis] if tab.diagnosis else [])]
        lines += [
            f"  {MARKS[passed]} {value} = {got}: {why}" for value, got, passed, why in tab.rows
        ]
        lines.append("")
    return "\n".join([*lines, *graded.notes])


def feedback_path(folder, graded, taken):
    """A file in `folder` for this hand-in's feedback, named after its file, never one already
    `taken`."""
    stem = re.sub(r"[^\w.-]+", "_", Path(graded.file).stem)[:80] or "learner"
    name, count = f"{stem}.txt", 1
    while name in taken:
        count += 1
        name = f"{stem}-{count}.txt"
    taken.add(name)
    return Path(folder) / name
