"""The commands of `python -m grader` that grade hand-ins (grader/cli/ parses them): each
takes the parsed arguments and its own parser (for usage errors) and returns the exit status."""

import sys
import time
from pathlib import Path

from ..exercises import ExerciseError, load_catalog
from ..handin import course_id
from . import gradescope as scope
from .class_report import write_report
from .gradebook import Gradebook, feedback, feedback_path
from .regrade import SameCode, files_in, header, regrade_all, said_below, shard, table_row
from .roster import ASSIGNMENT, RosterError, read_roster
from .sealed import Harness, SealedRunner


def course_time_limit(config, usage):
    """`time_limit` from the course's settings (mkdocs.yml's `course` extension)."""
    from course.options import OptionsError, read_config

    try:
        return read_config(config)[0].time_limit
    except OptionsError as error:
        usage.error(str(error))


def weights(given, exercises, usage):
    """Each exercise's points, in tab order: 1, or as `given`; an unknown name is a usage
    error."""
    found = dict.fromkeys(exercises, 1.0)
    for name, points in given:
        if name not in found:
            usage.error(f"--weight: no exercise {name!r} (the course has {', '.join(found)})")
        found[name] = points
    return found


def catalog_or_exit():
    try:
        return load_catalog()
    except ExerciseError as error:
        raise SystemExit(f"the course's exercises cannot be read: {error}") from None


def regrade(args, usage, progress):
    """`regrade`: every file graded, its row printed (and a plain CSV's written) as it comes."""
    exercises = catalog_or_exit()
    points = weights(args.weight, exercises, usage)
    roster = roster_for(args, usage)
    out_of_note(roster, args.assignment, points)
    review = review_path(args, usage)
    time_limit = course_time_limit(args.config, usage)
    files = shard(files_in(args.paths), *args.shard)
    if not files:
        print("no work files found in " + ", ".join(args.paths), file=sys.stderr)
        return 1
    feedback_folder(args.feedback)
    book = open_gradebook(args, points, roster, review)
    out = Output()
    out.line(header(exercises))
    harness = Harness(exercises, time_limit)
    course, same = course_id(exercises), SameCode()
    below, taken, problems, started, complete = [], set(), 0, time.monotonic(), False
    kept = []  # every file's Graded, for --report
    try:
        with progress(len(files)) as bar:
            graded_all = regrade_all(files, exercises, harness, course, args.jobs, same)
            for graded in graded_all:
                bar.update(1)
                if args.report:
                    kept.append(graded)
                if not graded.problem:
                    out.line(table_row(graded, exercises), bar)
                below += said_below(graded)
                problems += bool(graded.problem)
                if book:
                    book.add(graded)
                if args.feedback:
                    path = feedback_path(args.feedback, graded, taken)
                    path.write_text(feedback(graded, exercises, points), encoding="utf-8")
        complete = True
    finally:
        harness.close()
        to_review = book.close(complete) if book else None
    if args.report:
        write_report(args.report, kept, exercises, points)
    seconds = time.monotonic() - started
    out.line("")
    for line in below:
        out.line(line)
    print(
        f"graded {len(files)} files in {seconds:.1f} s, --jobs {args.jobs}; {same.again} tabs "
        "held code already run, and were graded as that run was",
        file=sys.stderr,
    )
    if book:
        print(said_review(to_review, len(book.entries), args, review), file=sys.stderr)
    return 1 if problems else 0


EXPORTS = {
    "canvas": "Canvas's gradebook export (Grades, Export), whose ID and SIS columns are how "
    "Canvas's import finds each learner",
    "moodle": "Moodle's participants or user download, whose --match field (email by default) "
    "is how Moodle's import finds each learner",
}


def roster_for(args, usage):
    """The --roster read, and the options that go with it checked, before any grading: a
    usage error (exit status 2) in one line for anything amiss."""
    if args.form != "plain" and not args.roster:
        usage.error(f"--form {args.form} needs --roster FILE, {EXPORTS[args.form]}")
    if args.match and not args.roster:
        usage.error("--match goes with --roster, a Moodle roster")
    if args.assignment and args.form != "canvas":
        usage.error("--assignment goes with --form canvas: it names a Canvas assignment")
    if not args.roster:
        return None
    try:
        roster = read_roster(args.roster, args.match)
    except RosterError as error:
        usage.error(f"--roster: {error}")
    if args.form != "plain" and roster.lms != args.form:
        usage.error(f"--form {args.form} needs {EXPORTS[args.form]}; {args.roster} is not one")
    if args.assignment:
        assignment_in(roster, args, usage)
    return roster


def out_of_note(roster, assignment, points):
    """A line on stderr when Canvas's assignment is out of other points than the total here:
    Canvas takes the numbers as they are."""
    possible = roster.assignments.get(assignment, "") if roster and assignment else ""
    total = sum(points.values())
    try:
        differs = bool(possible) and float(possible) != total
    except ValueError:
        differs = False
    if differs:
        print(
            f"note: {assignment} is out of {possible} points in Canvas, and the totals here are "
            f"out of {total:g}: --weight sets each exercise's points",
            file=sys.stderr,
        )


def assignment_in(roster, args, usage):
    """--assignment must be the header of an existing assignment's column in the roster, as
    Canvas's import targets it: `Name (id)`."""
    if not ASSIGNMENT.fullmatch(args.assignment):
        usage.error(
            f"--assignment: {args.assignment!r} is not an existing assignment's header, "
            'Name (id), such as "micrograd (12345)"'
        )
    if args.assignment not in roster.assignments:
        known = ", ".join(repr(name) for name in list(roster.assignments)[:5]) or "none"
        usage.error(
            f"--assignment: {args.roster} has no column {args.assignment!r} (its assignments: "
            f"{known}); export the gradebook once the assignment exists"
        )


def review_path(args, usage):
    """The review file: --review, else beside --csv as <stem>-review.csv, else none."""
    review = args.review or (
        args.csv and str(Path(args.csv).with_name(Path(args.csv).stem + "-review.csv"))
    )
    if review and args.csv and Path(review).resolve() == Path(args.csv).resolve():
        usage.error("--review must be another file than --csv")
    return review


def feedback_folder(folder):
    """--feedback's folder, made if it is missing: one line and exit status 1 if it cannot be."""
    if folder:
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SystemExit(
                f"--feedback: the folder {folder} cannot be made: {error.strerror}"
            ) from None


def open_gradebook(args, points, roster, review):
    """The Gradebook of --csv and the review file, both opened before any grading: a folder
    that is not there, or a file that cannot be written, is one line and exit status 1."""
    if not (args.csv or review):
        return None
    for option, path in (("--csv", args.csv), ("--review", review)):
        if path and not Path(path).parent.is_dir():
            raise SystemExit(
                f"{option}: there is no folder {Path(path).parent} to write {Path(path).name} in"
            )
    try:
        return Gradebook(args.csv, args.form, points, roster, review, args.assignment)
    except OSError as error:
        raise SystemExit(f"{error.filename} cannot be written: {error.strerror}") from None


def said_review(to_review, count, args, review):
    """The line on stderr that says how many hand-ins went to review, and where."""
    gone = len(to_review)
    said = (
        f"{gone} hand-in{'' if gone == 1 else 's'} went to review"
        if gone
        else "no hand-in went to review"
    )
    said += f", listed in {review}" if review and gone else ""
    if args.csv and args.form != "plain":
        going = count - gone
        learners = f"{going} learner is" if going == 1 else f"{going} learners are"
        said += f"; {learners} in {args.csv}, ready to import"
    return said


class Output:
    """The table on stdout, line by line as it comes; a closed pipe (`| head`) stops the
    printing, never the grading."""

    def __init__(self):
        self.open = True

    def line(self, text, bar=None):
        if not self.open:
            return
        try:
            if bar is not None and hasattr(bar, "write"):
                bar.write(text, file=sys.stdout)
            else:
                print(text, flush=True)
        except BrokenPipeError:
            self.open = False
            sys.stdout = open("/dev/null", "w")  # noqa: SIM115 - stdout for the rest of the run


def gradescope(args, usage, progress):
    """`gradescope`: the autograder zip."""
    exercises = catalog_or_exit()
    points = weights(args.weight, exercises, usage)
    time_limit = course_time_limit(args.config, usage)
    scope.write_zip(args.out, time_limit, points)
    print(f"wrote {args.out}: upload it as a programming assignment's autograder")
    return 0


def gradescope_run(args, usage, progress):
    """`gradescope-run`: one submission graded, Gradescope's results.json written."""
    exercises = catalog_or_exit()
    points = weights(args.weight, exercises, usage)
    return scope.grade_submission(args.submission, args.results, exercises, points, args.time_limit)


def verify(args, usage, progress):
    """`python -m grader verify FILE`: a certificate's code run sealed, each verdict it earns
    held to what the file claims (grader/cli/verify.py). Exit status 1 when the file claims more
    than its code earns, or cannot be read."""
    from ..handin import HandInError, read_handin
    from .verify import check, claims_more, text

    exercises = catalog_or_exit()
    try:
        handin = read_handin(Path(args.file).read_bytes())
    except (OSError, HandInError) as error:
        why = str(error) if isinstance(error, HandInError) else error.strerror
        raise SystemExit(f"{args.file}: cannot be verified: {why}") from None
    harness = Harness(exercises, course_time_limit(args.config, usage))
    runner = SealedRunner(harness)
    try:
        found = check(handin, exercises, runner, course_id(exercises))
    finally:
        runner.close()
        harness.close()
    print(text(found))
    return 1 if any(map(claims_more, found["tabs"])) else 0


def fuzz(args, usage, progress):
    """`python -m grader fuzz PATH`: grader/cli/fuzz.py."""
    from .fuzz import run

    return run(args)
