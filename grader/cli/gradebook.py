"""What a regrade writes for a gradebook: one CSV row per learner, a column per exercise with
its points (an exercise's weight when it passes, else 0), in the form a gradebook imports; a
"to review" CSV of the hand-ins that cannot go in one; and a feedback file per learner with the
words the browser shows a learner below the formula rung (grader/disclosure.py): the numbers
and where to measure, never a rule.

Forms (HOSTING.md says how to import each):
- "plain": learner (and, with a roster, who they are in it), file, a column per exercise, total,
  out of, notes. Every hand-in has its row, written as it is graded: this is the record.
- "canvas": Canvas's gradebook import, from a Canvas roster: the roster's Student, ID, SIS User
  ID, SIS Login ID and Section, then a column per exercise (each a new assignment) and a "Points
  Possible" row, or one total column named for an existing assignment (`Name (id)`).
- "moodle": Moodle's CSV grade import, from a Moodle roster: the --match field's value to map
  learners from, a column per exercise and the total, each mapped to a grade item on import.

An import file holds only hand-ins that name exactly one learner of the roster, alone: Moodle
aborts a whole import at a row it cannot map, and a guess would grade someone else. The rest
(unreadable files, texts that name no one or two people, two hand-ins of one learner) go to
review. Both files are written once every hand-in is in, since a duplicate can come last.
"""

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from .roster import Match, normal

FORMS = ("plain", "canvas", "moodle")
MARKS = {True: "✓", False: "✗"}
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads a formula from (OWASP)
REVIEW = ["file", "learner", "why", "total"]


def points(graded, weights):
    """Each exercise's points for a hand-in: its weight when it passed, else 0."""
    return {
        name: weight if getattr(graded.tabs.get(name), "verdict", "") == "pass" else 0
        for name, weight in weights.items()
    }


def number(value):
    return f"{value:g}"


def cell(value):
    """A cell as every CSV here writes it: text that a spreadsheet would run as a formula (it
    begins with =, +, -, @, a tab or a carriage return) is made text by a leading ', as
    OWASP's rule for CSV injection says; a learner chooses their own name."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA) else text


class Sheet:
    """A CSV file, opened at once (a path that cannot be written fails before any grading):
    every cell through `cell` and quoted, each row flushed."""

    def __init__(self, path):
        self.path = path
        self.file = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 - see close()
        self.writer = csv.writer(self.file, quoting=csv.QUOTE_ALL)

    def row(self, cells):
        self.writer.writerow([cell(value) for value in cells])
        self.file.flush()

    def close(self):
        self.file.close()


@dataclass
class Entry:
    """A hand-in as a gradebook keeps it until every hand-in is in."""

    file: str
    learner: str
    cells: list  # each exercise's points, "" for a file that cannot be graded
    total: str
    person: object = None  # the roster's Person the learner text names
    why: list = field(default_factory=list)  # why it goes to review


class Gradebook:
    """The CSV file of one form at `path` (or none), and the review file at `review` (or
    none). `roster` (grader/cli/roster.py) is needed by canvas and moodle; `assignment` is the
    Canvas assignment, `Name (id)`, that takes the total instead of a column per exercise."""

    def __init__(self, path, form, weights, roster=None, review=None, assignment=""):
        if form != "plain" and roster is None:
            raise ValueError(f"the {form} form needs a roster: it carries the roster's identity")
        self.form, self.weights, self.roster, self.assignment = form, weights, roster, assignment
        self.entries = []
        self.sheet = Sheet(path) if path else None
        try:
            self.review = Sheet(review) if review else None
        except OSError:
            if self.sheet:
                self.sheet.close()
            raise
        if self.sheet and form == "plain":
            self.sheet.row(self.plain_header())

    def add(self, graded):
        """A graded hand-in: its row in a plain file now, everything else at `close`."""
        scores = points(graded, self.weights)
        entry = Entry(
            graded.file,
            graded.learner,
            ["" if graded.problem else number(scores[name]) for name in self.weights],
            "" if graded.problem else number(sum(scores.values())),
        )
        if graded.problem:
            entry.why.append(f"it cannot be graded: {graded.problem}")
        found = self.roster.find(graded.learner) if self.roster else Match(None)
        entry.person = found.person
        entry.why += [found.why] if found.why and not graded.problem else []
        key = found.person.key if found.person else ""
        if found.person and self.form == "moodle" and (not key or cell(key) != key):
            entry.why.append(self.unmappable(found.person))
        self.entries.append(entry)
        if self.sheet and self.form == "plain":
            notes = "; ".join([graded.problem] if graded.problem else graded.notes)
            out_of = number(sum(self.weights.values()))
            who = entry.person.columns if entry.person else [""] * len(self.identity())
            self.sheet.row(
                [entry.learner, *who, entry.file, *entry.cells, entry.total, out_of, notes]
            )

    def unmappable(self, person):
        """Why a Moodle row cannot go in the import: Moodle maps from the value as it is, and
        one that is empty, or that `cell` must change, would be a learner it cannot find."""
        field_name = self.roster.match
        if not person.key:
            return f"the roster gives no {field_name} for {person.said()}"
        return (
            f"the {field_name} of {person.said()} begins with {person.key[0]!r}, which a CSV "
            "cell cannot carry as it is: enter this grade by hand"
        )

    def close(self, complete=True):
        """Writes what waits for the end: the import file (only when `complete`: a partial
        one would grade some learners and not others) and the review file. Returns the
        entries that went to review."""
        mark_duplicates(self.entries, bool(self.roster))
        self.entries.sort(key=lambda entry: entry.file)
        review = [entry for entry in self.entries if entry.why]
        try:
            if self.sheet and complete and self.form != "plain":
                for row in self.import_rows():
                    self.sheet.row(row)
            if self.review:
                self.review.row(REVIEW)
                for entry in review:
                    self.review.row([entry.file, entry.learner, "; ".join(entry.why), entry.total])
        finally:
            for sheet in (self.sheet, self.review):
                if sheet:
                    sheet.close()
        return review

    def identity(self):
        return list(self.roster.columns) if self.roster else []

    def plain_header(self):
        names = list(self.weights)
        return ["learner", *self.identity(), "file", *names, "total", "out of", "notes"]

    def import_rows(self):
        """The import file's rows: header, Canvas's Points Possible (for new assignments),
        each learner's grades."""
        going = [entry for entry in self.entries if not entry.why]
        if self.form == "moodle":
            yield [self.roster.match, *self.weights, "total"]
            for entry in going:
                yield [entry.person.key, *entry.cells, entry.total]
            return
        if self.assignment:  # no Points Possible row: the assignment has its own
            yield [*self.roster.columns, self.assignment]
        else:
            yield [*self.roster.columns, *self.weights]
            possible = [number(weight) for weight in self.weights.values()]
            yield ["Points Possible", *[""] * (len(self.roster.columns) - 1), *possible]
        for entry in going:
            yield [*entry.person.columns, *([entry.total] if self.assignment else entry.cells)]


def mark_duplicates(entries, by_roster):
    """Two hand-ins or more of one learner: each goes to review, since which one counts is the
    instructor's call. With a roster, one learner is one roster row; without, one learner text
    (as the loose rule reads it)."""
    groups = {}
    for entry in entries:
        if by_roster and entry.person is None:
            continue
        key = entry.person.row if by_roster else normal(entry.learner)
        groups.setdefault(key, []).append(entry)
    for group in groups.values():
        if len(group) < 2:
            continue
        files = ", ".join(sorted(entry.file for entry in group))
        who = group[0].person.said() if by_roster else f'the learner "{group[0].learner}"'
        for entry in group:
            entry.why.append(f"{len(group)} hand-ins are of {who}: {files}")


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
