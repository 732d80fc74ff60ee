"""The commands of `python -m grader` that grade hand-ins (grader/cli.py parses them): each
takes the parsed arguments and its own parser (for usage errors) and returns the exit status."""

import sys
import time
from pathlib import Path

from . import gradescope as scope
from .class_report import write_report
from .exercises import ExerciseError, load_catalog
from .gradebook import Gradebook, feedback, feedback_path
from .handin import course_id
from .regrade import files_in, header, regrade_all, said_below, shard, table_row
from .sealed import Harness


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
    """`regrade`: every file graded, its row printed and written as it comes."""
    exercises = catalog_or_exit()
    points = weights(args.weight, exercises, usage)
    time_limit = course_time_limit(args.config, usage)
    files = shard(files_in(args.paths), *args.shard)
    if not files:
        print("no work files found in " + ", ".join(args.paths), file=sys.stderr)
        return 1
    book = Gradebook(args.csv, args.form, points) if args.csv else None
    if args.feedback:
        Path(args.feedback).mkdir(parents=True, exist_ok=True)
    out = Output()
    out.line(header(exercises))
    harness = Harness(exercises, time_limit)
    below, taken, problems, started = [], set(), 0, time.monotonic()
    kept = []  # every file's Graded, for --report
    try:
        with progress(len(files)) as bar:
            for graded in regrade_all(files, exercises, harness, course_id(exercises), args.jobs):
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
    finally:
        harness.close()
        if book:
            book.close()
    if args.report:
        write_report(args.report, kept, exercises, points)
    seconds = time.monotonic() - started
    out.line("")
    for line in below:
        out.line(line)
    print(f"graded {len(files)} files in {seconds:.1f} s, --jobs {args.jobs}", file=sys.stderr)
    return 1 if problems else 0


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


def fuzz(args, usage, progress):
    """`python -m grader fuzz PATH`: grader/fuzz_cli.py."""
    from .fuzz_cli import run

    return run(args)
