"""The fuzzer's figures in CPython (issue 42's "Check my whole engine"): graphs a second for each
design's references, split into drawing (runner/fuzz.py, with the reference run that keeps a
graph), running on the learner's class and judging against the answer key (grader/fuzz.py);
then the whole of `python -m grader fuzz` on a work file of references, its runs in child
processes. Figures, not assertions: `.venv/bin/python bench/fuzz_pace.py [GRAPHS]`."""

import contextlib
import io
import json
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

from grader.cli.fuzz import main as fuzz_main
from grader.exercises import load_catalog
from grader.fuzz import first_failure
from grader.handin import code_key
from grader.runner_data import runner_data
from runner.fuzz import random_graphs, run_graphs


def timed(work):
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def in_process(design, count):
    """`(draw, run, judge)` seconds for `count` graphs over every op of `design`."""
    drawn = random_graphs(design, list(design["labels"]), 0)
    graphs, draw = timed(lambda: list(islice(drawn, count)))
    ran, run = timed(lambda: run_graphs(design, design["references"], graphs))
    failure, judge = timed(lambda: first_failure(graphs, ran, design["labels"]))
    assert failure is None, failure
    return draw, run, judge


def command(catalog, count):
    """Seconds for `python -m grader fuzz` on a work file of every reference."""
    code = {
        code_key(e.design, e.ops[0]): e.solutions[e.ops[0]]
        for e in catalog.values()
        if e.kind == "op"
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "work.json"
        path.write_text(json.dumps({"format": "micrograd-work", "version": 1, "code": code}))
        with contextlib.redirect_stdout(io.StringIO()):
            status, seconds = timed(lambda: fuzz_main([str(path), "--graphs", str(count)]))
    assert status == 0
    return seconds


def main(count):
    catalog = load_catalog()
    known = runner_data(catalog)
    rows = []
    for name, design in known["designs"].items():
        draw, run, judge = in_process(design, count)
        total = draw + run + judge
        rows.append(
            f"{name:12} {count / total:8,.0f} graphs/s   draw {draw:5.2f} s   "
            f"run {run:5.2f} s   judge {judge:5.2f} s"
        )
    seconds = command(catalog, count)
    print(f"\n{count:,} graphs a design, in this process (CPython {sys.version.split()[0]}):")
    print("\n".join(rows))
    print(f"python -m grader fuzz, both designs, child processes: {seconds:.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if sys.argv[1:] else 5000)
