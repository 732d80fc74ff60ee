"""A class list from the LMS (`regrade --roster`), as the LMS itself exports it: Canvas's
gradebook export or Moodle's participants or user download; and the rule that finds which of
its people a hand-in's learner text (what the learner typed: a name or an ID) names.

The rule never guesses. A text names whoever one of their identity fields is, exactly; failing
that, whoever one is once case, accents and spacing are set aside (a `Last, First` name is also
read as `First Last`); failing that, when the text has parts ("Ada Lovelace, s1815"), the one
person every part names. A text that names two people names nobody: its hand-in goes to review,
as does one that names no one.
"""

import csv
import re
import unicodedata
from dataclasses import dataclass

CANVAS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
CANVAS_NAMES = ("Student", "ID", "SIS User ID", "SIS Login ID")  # what Canvas matches a row by
# Moodle's fields by the headers its downloads give them: the participants page's (in English)
# and the bulk user download's (the fields' short names); "Surname" is Moodle 3's "Last name"
MOODLE = {
    "firstname": ("First name", "firstname"),
    "lastname": ("Last name", "Surname", "lastname"),
    "email": ("Email address", "email"),
    "username": ("Username", "username"),
    "idnumber": ("ID number", "idnumber"),
}
MATCH = ("email", "username", "idnumber")  # what Moodle's CSV grade import maps learners from
PARTS = re.compile(r"[,;()\[\]|]")
ASSIGNMENT = re.compile(r".+ \(\d+\)")  # Canvas's header for an existing assignment: Name (id)
TEST_STUDENT = ("Student, Test", "Test Student")  # Canvas's Student View account


class RosterError(ValueError):
    """A roster that cannot be read or used: the message says why, in one line."""


@dataclass(frozen=True)
class Person:
    """One learner of a roster."""

    row: int  # the roster file's row (its header is row 1)
    label: str  # how a message names them
    columns: tuple  # what a gradebook carries of them, one value per `Roster.columns`
    names: tuple  # every text that names them
    key: str = ""  # Moodle: the --match field's value, what the import maps from

    def said(self):
        return f"{self.label} (row {self.row} of the roster)"


@dataclass(frozen=True)
class Match:
    """Who a learner text names: one person, or nobody and why."""

    person: Person | None
    why: str = ""


def normal(text):
    """`text` as the loose rule compares it: accents dropped (NFKD, then no combining marks),
    case folded, runs of spaces made one."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def name_forms(first, last):
    """A name as learners type it: `First Last` and `Last, First`."""
    first, last = first.strip(), last.strip()
    return (f"{first} {last}", f"{last}, {first}") if first and last else (first or last,)


class Roster:
    """The people of one LMS's export, and who a learner text names among them."""

    def __init__(self, lms, columns, people, match="", assignments=None):
        self.lms, self.columns, self.people = lms, tuple(columns), list(people)
        # Canvas: each existing assignment's header, `Name (id)`, and its points possible
        self.match, self.assignments = match, dict(assignments or {})
        self.exact, self.loose = {}, {}
        for index, person in enumerate(self.people):
            for name in filter(None, (name.strip() for name in person.names)):
                self.exact.setdefault(name, set()).add(index)
                self.loose.setdefault(normal(name), set()).add(index)

    def named(self, text):
        """The indexes of whoever `text`, whole, names: exactly if anyone, else loosely."""
        return self.exact.get(text.strip()) or self.loose.get(normal(text)) or set()

    def find(self, text):
        """The Match of a learner text: never a guess between two people."""
        found = self.named(text)
        parts = [part for part in PARTS.split(text) if part.strip()]
        if not found and len(parts) > 1:
            each = [self.named(part) for part in parts]
            found = set.intersection(*each) if all(each) else set()
            if all(each) and not found:
                return Match(None, "its parts name different learners: " + self.said(*each))
        if len(found) == 1:
            return Match(self.people[next(iter(found))])
        if found:
            return Match(None, f"it could name {len(found)} learners: {self.said(found)}")
        return Match(None, "no one in the roster has this name or ID")

    def said(self, *found):
        """The people of `found` (sets of indexes), as a message names them."""
        return ", ".join(self.people[index].said() for index in sorted(set().union(*found)))


def read_roster(path, match=""):
    """The Roster in the CSV file at `path`; `match` is the field a Moodle import maps from
    (email by default). Raises RosterError for a file that is neither LMS's export."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as file:
            rows = list(csv.reader(file))
    except OSError as error:
        raise RosterError(f"{path} cannot be read: {error.strerror}") from None
    except (UnicodeDecodeError, csv.Error):
        raise RosterError(f"{path} is not a CSV file in UTF-8") from None
    header = [cell.strip() for cell in rows[0]] if rows else []
    if header[:2] == ["Student", "ID"]:
        if match:
            raise RosterError(
                f"--match is for a Moodle roster; {path} is Canvas's gradebook export, whose "
                "import finds each learner by the ID and SIS columns it carries"
            )
        return canvas_roster(header, rows[1:])
    fields = moodle_fields(header)
    if "firstname" in fields and "lastname" in fields and set(fields) & set(MATCH):
        return moodle_roster(path, fields, rows[1:], match or "email")
    raise RosterError(
        f"{path} is neither Canvas's gradebook export (its header begins Student,ID) nor "
        "Moodle's participants or user download (First name, Last name and an Email address, "
        "Username or ID number column)"
    )


def canvas_roster(header, rows):
    """Canvas's gradebook export: a learner a row, but for its Points Possible row (and any
    row of no one, such as an old export's Muted row) and the Student View account."""
    where = {name: header.index(name) for name in CANVAS if name in header}
    assignments = dict.fromkeys(filter(ASSIGNMENT.fullmatch, header), "")
    people = []
    for number, row in enumerate(rows, start=2):
        cells = {
            name: row[index].strip() if index < len(row) else "" for name, index in where.items()
        }
        student = cells.get("Student", "")
        if student.startswith("Points Possible"):  # each assignment's points, not a learner
            given = zip(header, row, strict=False)  # a short row leaves the rest unknown
            assignments |= {name: value.strip() for name, value in given if name in assignments}
            continue
        if student in TEST_STUDENT:
            continue
        if not (student or cells.get("ID")):
            continue
        names = [cells.get(name, "") for name in CANVAS_NAMES]
        last, comma, first = student.partition(",")
        names += name_forms(first, last) if comma else ()
        columns = tuple(cells.get(name, "") for name in CANVAS)
        people.append(Person(number, student or f"ID {cells['ID']}", columns, tuple(names)))
    return Roster("canvas", CANVAS, people, assignments=assignments)


def moodle_fields(header):
    """Each Moodle field the header has, by the index of its column."""
    found = {}
    for field, spellings in MOODLE.items():
        for index, name in enumerate(header):
            if name in spellings and field not in found:
                found[field] = index
    return found


def moodle_roster(path, fields, rows, match):
    """Moodle's participants or user download: a learner a row, keyed by the field that
    Moodle's import will map them from."""
    if match not in fields:
        raise RosterError(
            f"{path} has no {match} column: Moodle's participants download carries the fields "
            "its site's Show user identity setting lists, so choose another --match or ask for "
            "that field"
        )
    order = ("firstname", "lastname", match)
    people = []
    for number, row in enumerate(rows, start=2):
        cells = {
            field: row[index].strip() if index < len(row) else "" for field, index in fields.items()
        }
        if not any(cells.values()):
            continue
        forms = name_forms(cells["firstname"], cells["lastname"])
        names = (*(cells.get(field, "") for field in MATCH), *forms)
        columns = tuple(cells[field] for field in order)
        people.append(Person(number, forms[0] or cells[match], columns, names, cells[match]))
    columns = [MOODLE[field][0] for field in order]
    return Roster("moodle", columns, people, match)
