"""`python -m grader fuzz PATH [--graphs N] [--seed S]`: a learner's whole engine, as their work
file holds it, run on random graphs over every op they wrote (grader/fuzz.py); prints the
smallest graph it gets wrong, or "no failing graph in N". Exit status 1 when a graph failed,
0 when none did, 2 for a file that is not a work file.

A work file is untrusted code: it runs where a regrade runs a hand-in, in a sealed Node process
of its own (grader/cli/sealed.py, runner/node.mjs), its Python's memory put back after every run
of graphs, under a time limit; the process holds no other op's answer than it needs.
"""

import argparse
import json
import sys
from pathlib import Path

from ..exercises import load_catalog
from ..fuzz import Unrunnable, search
from ..fuzz_page import written as written_bodies
from ..fuzz_words import engine_did, ops_count, program, quiet
from ..handin import HandInError, code_key, read_handin
from ..kinds.op import op_tabs
from .sealed import Harness, RunFailed, SealedRunner

BATCH = 500  # graphs a run: enough that what a run costs beside its graphs is small
TIME_LIMIT = 20  # seconds for one run of graphs: 500 take a tenth of a second
REFUSED_SAID = "it reached outside Python (a process, a file or the network) and was ended"
# what the learner wrote in each design, as the course calls it
WRITTEN = {"closures": "Your closures", "local_grads": "Your local-gradient tuples"}


def main(argv):
    """`python -m grader fuzz` on its own (grader/cli/ adds it to the grader's commands)."""
    return run(_parser().parse_args(argv))


def run(args):
    """The fuzz command, `args` parsed: `path`, `graphs`, `seed`. Exit status 1 when a graph
    fails, 0 when none does, 2 when the file cannot be read."""
    try:
        handin = read_handin(Path(args.path).read_bytes())
    except OSError as error:
        print(f"{args.path}: cannot be read: {error.strerror}", file=sys.stderr)
        return 2
    except HandInError as error:
        print(f"{args.path}: {error}", file=sys.stderr)
        return 2
    catalog = load_catalog()
    failed, texts = False, []
    harness = Harness(catalog, TIME_LIMIT)
    try:
        for name, design in harness.known["designs"].items():
            bodies = written(handin, catalog, name)
            if bodies:
                finding = search_sealed(harness, design, bodies, args)
                failed |= finding.failed
                texts.append(told(finding, WRITTEN.get(name, name), design["labels"], args))
    finally:
        harness.close()
    print(
        "\n\n".join(texts) or "nothing to check: the file holds no op's code but the starter code"
    )
    return 1 if failed else 0


def _parser():
    return arguments(argparse.ArgumentParser(prog="python -m grader fuzz", description=ABOUT))


ABOUT = (
    "Run a learner's whole Value class on random graphs and print the smallest graph it gets "
    "wrong. Exit status 1 when one fails, 0 when none does, 2 when the file cannot be read."
)


def arguments(parser):
    """The fuzz command's arguments, added to `parser`."""
    parser.add_argument("path", help='a work file, as "Download my work" saves it')
    parser.add_argument(
        "--graphs", type=_positive, default=500, help="how many graphs to try (500)"
    )
    parser.add_argument("--seed", type=int, default=0, help="which graphs: the same seed, the same")
    return parser


def _positive(text):
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def written(handin, catalog, design):
    """`{op: code}` of the ops of `design` whose tab holds more than its starter code (the
    page's check chooses them the same way, grader/fuzz_page.py)."""
    ops = [e.ops[0] for e in op_tabs(catalog, design)]
    return written_bodies(
        catalog, design, {op: handin.code.get(code_key(design, op)) for op in ops}
    )


def search_sealed(harness, design, bodies, args):
    """grader/fuzz.py's search, each of its runs of graphs in one sealed process."""
    runner = SealedRunner(harness)
    try:
        run = sealed(runner, design, bodies)
        return search(design, list(bodies), run, args.graphs, args.seed, BATCH)
    finally:
        runner.close()


def sealed(runner, design, bodies):
    """`run(graphs)` for grader/fuzz.py: runner/fuzz.py's run_graphs in `runner`, on a class
    that holds the reference code only of the ops the learner did not write."""
    kept = {op: "" if op in bodies else body for op, body in design["references"].items()}
    design = design | {"references": kept}

    def run(graphs):
        request = {"design": design, "bodies": bodies, "graphs": graphs}
        try:
            text = runner.run(json.dumps(request) + "\n")
        except RunFailed as failed:
            said = REFUSED_SAID if failed.reason == "refused" else str(failed)
            raise Unrunnable(said) from None
        try:
            return json.loads(text)
        except ValueError:
            return None  # judged as a report no run could have sent

    return run


def told(finding, whose, labels, args):
    """What the search found, in words that state no local derivative (grader/disclosure.py):
    the graph, the leaf, and the two numbers."""
    if finding.broken:
        return f"{whose} do not compile, so no graph ran: {quiet(finding.broken)}"
    if finding.unrunnable:
        return f"{whose}: a run of {finding.unrunnable}"
    if not finding.first:
        return f"{whose}: no failing graph in {finding.searched} (seed {args.seed})."
    smallest = finding.smallest
    lines = [
        f"{whose} fail on graph {finding.number} of {args.graphs} (seed {args.seed}), which "
        f"has {ops_count(finding.first.graph)}. The smallest graph that still fails has "
        f"{ops_count(smallest.graph)}:",
        "",
        *program(smallest.graph, labels),
        "",
        engine_did(smallest),
    ]
    return "\n".join(lines)
