"""`python -m grader`: the commands, each with its `--help`. Exit status 0 when all went well,
1 when something could not be done (a file that cannot be graded, an answer graded other than
expected), 2 for a command line that makes no sense.

The only part of the grader that uses more than the standard library (tqdm, for progress;
commands.py reads the course's settings with course.options, PyYAML): the grader runs in the
browser too, and the browser never imports grader/cli/.
"""

import argparse
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def parser():
    top = argparse.ArgumentParser(
        prog="python -m grader",
        description="Without a command: the maintainers' table (every reference passes, every "
        "known wrong answer fails as expected, in the words of its golden transcript).",
    )
    top.add_argument(
        "--write-transcripts",
        action="store_true",
        help="write each exercise's golden transcript instead of checking it",
    )
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    for add in (add_regrade, add_verify, add_gradescope, add_fuzz, add_gradescope_run):
        add(commands)
    return top


def add_regrade(commands):
    regrade = commands.add_parser(
        "regrade",
        help="grade learners' work files, sealed, whatever verdicts they claim",
        description='Grade learners\' work files ("Download my work"): each run in a fresh '
        "sealed Python, under the course's time limit (mkdocs.yml). Prints a table as files "
        "are graded; exit status 1 when any file cannot be graded.",
    )
    regrade.set_defaults(usage=regrade)
    regrade.add_argument("paths", nargs="+", metavar="PATH", help="work files, or folders of them")
    add_grading_options(regrade)
    regrade.add_argument(
        "--jobs",
        type=positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="files graded at once, each job a Node process and each file a worker of its own "
        "in it (default: %(default)s, the machine's cores)",
    )
    regrade.add_argument(
        "--shard",
        type=shard_of,
        default=(1, 1),
        metavar="K/N",
        help="grade only the K-th of N equal shares of the files (sorted): for N machines",
    )
    add_gradebook_options(regrade)
    regrade.add_argument(
        "--feedback", metavar="FOLDER", help="write a feedback file per learner in FOLDER"
    )
    regrade.add_argument(
        "--report",
        metavar="FOLDER",
        help="write the class at a glance in FOLDER: index.html (each exercise's outcomes and "
        "the causes found, each learner's next hint) and diagnoses.csv",
    )
    add_config(regrade)


def add_verify(commands):
    verify = commands.add_parser(
        "verify",
        help="check a learner's certificate: what its code earns, against what it claims",
        description='Check a certificate ("Make my certificate", or any work file) as the '
        "course's verify page does: each exercise's code run sealed, as regrade runs it, and "
        "its verdict now held to the one the file claims. Exit status 1 when the file claims "
        "a pass its code does not earn, or cannot be read.",
    )
    verify.set_defaults(usage=verify)
    verify.add_argument("file", metavar="FILE", help="the certificate (a .json work file)")
    add_config(verify)


def add_gradebook_options(regrade):
    regrade.add_argument(
        "--csv",
        metavar="FILE",
        help="write the grades to FILE: a plain file has a row per hand-in, written as it is "
        "graded; an import file (--form canvas or moodle) is written once all are graded",
    )
    regrade.add_argument(
        "--form",
        choices=("plain", "canvas", "moodle"),
        default="plain",
        help="the CSV's form: plain, or what Canvas's or Moodle's gradebook imports, which "
        "needs --roster (default: plain)",
    )
    regrade.add_argument(
        "--roster",
        metavar="FILE",
        help="the class as your LMS exports it: Canvas's gradebook export (Grades, Export) or "
        "Moodle's participants download (or bulk user download); each hand-in's name or ID is "
        "matched to one learner in it, and the CSV carries who they are there",
    )
    regrade.add_argument(
        "--match",
        choices=("email", "username", "idnumber"),
        help="with a Moodle roster: the field --form moodle writes for Moodle's import to map "
        "learners from (default: email)",
    )
    regrade.add_argument(
        "--assignment",
        metavar='"NAME (ID)"',
        help="with --form canvas: one total column for this existing assignment, its header "
        "as the roster has it, instead of a new assignment per exercise",
    )
    regrade.add_argument(
        "--review",
        metavar="FILE",
        help="list in FILE the hand-ins to look at by hand, with why: files that cannot be "
        "graded, names or IDs that match no one or two learners of the roster, two hand-ins of "
        "one learner; none of them goes into an import file (default: beside --csv, "
        "grades-review.csv for grades.csv)",
    )


def add_gradescope(commands):
    gradescope = commands.add_parser(
        "gradescope",
        help="write a Gradescope autograder zip",
        description="Write the autograder zip to upload to a Gradescope programming "
        "assignment: its run_autograder grades the work file a learner submits, sealed, and "
        "writes Gradescope's results.json.",
    )
    gradescope.set_defaults(usage=gradescope)
    gradescope.add_argument(
        "--out", default="autograder.zip", metavar="FILE", help="default: %(default)s"
    )
    add_grading_options(gradescope)
    add_config(gradescope)


def add_fuzz(commands):
    from .fuzz import ABOUT, arguments

    fuzz = commands.add_parser(
        "fuzz", help="run a work file's engine on random graphs", description=ABOUT
    )
    fuzz.set_defaults(usage=fuzz)
    arguments(fuzz)


def add_gradescope_run(commands):
    submission = commands.add_parser(
        "gradescope-run",
        help="what the autograder's run_autograder runs: one submission to results.json",
        description="Grade the work file in SUBMISSION (a folder) and write Gradescope's "
        "results.json to RESULTS.",
    )
    submission.set_defaults(usage=submission)
    submission.add_argument("submission", metavar="SUBMISSION")
    submission.add_argument("results", metavar="RESULTS")
    submission.add_argument("--time-limit", type=float, required=True, metavar="SECONDS")
    add_grading_options(submission)


def add_config(command):
    command.add_argument(
        "--config",
        default=str(ROOT / "mkdocs.yml"),
        metavar="FILE",
        help="the course's settings, for its time_limit (default: mkdocs.yml)",
    )


def add_grading_options(command):
    command.add_argument(
        "--weight",
        action="append",
        default=[],
        type=weight_of,
        metavar="EXERCISE=POINTS",
        help="an exercise's points (default: 1 each); repeat for more",
    )


def positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return value


def shard_of(text):
    part, _, parts = text.partition("/")
    if not (part.isdigit() and parts.isdigit() and 1 <= int(part) <= int(parts)):
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N with 1 <= K <= N, such as 1/4")
    return int(part), int(parts)


def weight_of(text):
    name, _, value = text.partition("=")
    try:
        points = float(value)
    except ValueError:
        points = -1
    if not name or not math.isfinite(points) or points < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not EXERCISE=POINTS, such as mul=2")
    return name, points


def main(argv=None):
    top = parser()
    args = top.parse_args(sys.argv[1:] if argv is None else argv)
    if args.command is None:
        from .report import main as table

        return table(["--write-transcripts"] if args.write_transcripts else [])
    if args.write_transcripts:
        top.error("--write-transcripts goes without a command")
    from . import commands

    run = getattr(commands, args.command.replace("-", "_"))
    return run(args, args.usage, progress)


def progress(total):
    """A progress bar with an estimate of the time left, on stderr (hidden when stderr is not
    a terminal)."""
    from tqdm import tqdm

    return tqdm(total=total, unit="file", file=sys.stderr, disable=None, dynamic_ncols=True)
