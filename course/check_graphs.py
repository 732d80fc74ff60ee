"""The graph of every check of every exercise, laid out at build time by Graphviz (as the
lessons' diagrams are, course/graphs.py) for the results' "Show the graph": the page writes in
the learner's numbers and steps through their backward pass (widget/src/exercise/graph-view.js).

One file per exercise, `assets/course/graphs/<id>.<hash>.json`, fetched the first time a
learner opens one of its graphs: `{"checks": [{"wide": svg, "narrow": svg}]}`, drawn left to
right for wide screens and top down for phones.
"""

import hashlib
import json
from pathlib import Path

from grader.answer_key import answer, node_names
from grader.kinds.registry import KINDS

from . import graphs, prerender

GRAPHS_DIR = "assets/course/graphs"


def check_sources(exercise):
    """The DOT sources of an exercise's checks: `[(wide, narrow)]`."""
    found = []
    for check in exercise.checks:
        nodes, space = answer(check)
        names = node_names(nodes, space)
        checked = {names.index(name) for name in check.names}
        found.append(tuple(graphs.check_dot(nodes, names, checked, way) for way in ("LR", "TB")))
    return found


def write_check_graphs(root, site_dir, catalog):
    """Writes every exercise's graphs; returns `{exercise id: file name}` (in GRAPHS_DIR)."""
    sources = {
        exercise.id: check_sources(exercise)
        for exercise in catalog.values()
        if KINDS[exercise.kind].check_graphs
    }
    flat = [dot for pairs in sources.values() for pair in pairs for dot in pair]
    drawn = iter(prerender.svgs(flat, root))
    folder = Path(site_dir) / GRAPHS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    names = {}
    for exercise, pairs in sources.items():
        checks = [{"wide": next(drawn), "narrow": next(drawn)} for _ in pairs]
        text = json.dumps({"checks": checks}, separators=(",", ":"))
        name = f"{exercise}.{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
        (folder / name).write_text(text, encoding="utf-8")
        names[exercise] = name
    return names
