"""The data a widget hydrates from, and the HTML element that carries it.

The element is `<div class="exercise-widget" data-exercise-widget>` holding
`<template data-exercise-data>` with this JSON (a template, not a script: mkdocs-material's
instant navigation re-creates every <script> of a new page as executable code):

    {
      "exercises": [                      # in the order the page's block lists them
        {"id": "mul", "kind": "op",       # "op": one op's code; "graph": whole graphs;
                                          # "checker": a gradient checker's three functions
                                          # "engine": a whole engine with a bug (slot "engine")
         "design": "closures",            # the Value class it completes (grader/scaffold.py)
         "label": "__mul__", "ops": ["mul"],
         "prompt": "<p>…</p>", "hints": ["<p>…</p>"], "why": "<p>…</p>",   # HTML
         "stubs": {"mul": "…"}, "solutions": {"mul": "…"},                  # op -> code
         "scope": {"mul": ["self", "other", "out", "math"]},               # names the code can use
         "test_code": "",                 # the Python a graph exercise runs, else ""
         "graphs": "mul.1c2d….json",      # its checks' graphs, in assets/course/graphs/
         "nudge": {"build": "x * y", "inputs": {"x": 2.0, "y": -3.0},     # op tabs; else null
                   "exponent": null},     # a power's: its build says `x ** n` then
         "worked": "Gradients by hand",   # the earlier page that worked its rule out, or ""
         "example": "Backward closures",  # the page that shows its answer worked, or ""
         "trained_ops": [...],            # a checker tab only: the op tabs its plot measures
         "folds": [{"id": "tanh", "version": "…", "label": "tanh"}, …],  # an engine tab only:
                                          # the op tabs whose closures it folds until passed
         "fix": [{"where": "Value › backward",                           # an engine tab: its
                  "lines": [[" ", "…"], ["-", "…"], ["+", "…"]]}],      # fix as a diff, else []
         "version": "3f2a…"}              # changes when the exercise's definition changes
      ],
      "designs": {                        # each design the page's exercises complete
        "closures": {"segments": [{"text": "…"}, {"slot": "add", "indent": 12}, …],
                     "labels": {"add": "__add__", …}, "expression": false,
                     "stubs": {"add": "…", …}}
      },
      "time_limit": 5                     # seconds a run may take (`time_limit`)
    }

The last is the course's setting (course/options.py), added by course/extension.py.
widget/src/exercise/model.js reads it.
"""

import difflib
import html
import json

from grader import scaffold
from grader.kinds.op import op_tabs, trained_ops
from grader.kinds.registry import KINDS
from grader.scaffold import DESIGNS, labels

NOSCRIPT = "This exercise runs Python in your browser: it needs JavaScript to be turned on."

# Characters HTML would read as markup inside the template. JSON allows their \u escapes
# anywhere in a string, so JSON.parse reads the same text back.
SCRIPT_UNSAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


class UnknownExercise(ValueError):
    """An exercise id that `exercises/` does not define."""


def widget_data(ids, catalog, to_html, graphs=None):
    """The widget's data for exercises `ids` of `catalog`, Markdown rendered by `to_html`;
    `graphs` names each exercise's file of check graphs (course/check_graphs.py)."""
    unknown = [name for name in ids if name not in catalog]
    if unknown:
        close = difflib.get_close_matches(unknown[0], catalog, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownExercise(
            f"unknown exercise {', '.join(map(repr, unknown))}{hint} "
            f"(exercises/ defines {', '.join(catalog)})"
        )
    ids = with_op_tabs(ids, catalog)
    designs = dict.fromkeys(catalog[name].design for name in ids)
    return {
        "exercises": [
            _exercise(catalog[name], to_html, (graphs or {}).get(name, ""))
            | KINDS[catalog[name].kind].widget(catalog[name], catalog)
            for name in ids
        ],
        "designs": {design: _design(design, catalog) for design in designs},
    }


def with_op_tabs(ids, catalog):
    """`ids`, with the op tabs each graph exercise runs put before it where the block left them
    out: the learner writes those ops there, so a graph exercise works on any page."""
    found = []
    for name in ids:
        exercise = catalog[name]
        if KINDS[exercise.kind].needs_op_tabs:
            found += [tab for tab in _op_tabs(exercise, catalog) if tab not in ids + found]
        found.append(name)
    return found


def _op_tabs(graph, catalog):
    by_op = {e.ops[0]: e.id for e in op_tabs(catalog, graph.design)}
    return [by_op[op] for op in graph.ops if op in by_op]


def _exercise(exercise, to_html, graphs):
    """What every tab's data has; its kind adds or changes some (grader/kinds/)."""
    return {
        "id": exercise.id,
        "kind": exercise.kind,
        "design": exercise.design,
        "label": exercise.label,
        "ops": list(exercise.ops),
        "prompt": to_html(exercise.prompt),
        "hints": [to_html(hint) for hint in exercise.hints],
        "why": to_html(exercise.why),
        "stubs": dict(exercise.stubs),
        "solutions": dict(exercise.solutions),
        "scope": {},  # the names each slot's code can use: its kind's
        "test_code": exercise.test_code,
        "graphs": graphs,
        "version": exercise.version,
        "nudge": None,  # an op tab's nudge tool
        "worked": exercise.worked,  # the earlier page that worked its rule out, or ""
        "example": exercise.example,  # the page that shows its answer worked through, or ""
        "fix": list(exercise.fix),  # an engine tab's fix as a diff (grader/bug_diff.py), else []
    }


def _design(design, catalog):
    stubs = {}
    for tab in op_tabs(catalog, design):
        stubs |= tab.stubs
    return {
        "segments": scaffold.segments(design),
        "labels": labels(design),
        "expression": DESIGNS[design].expression,  # slots hold an expression, not statements
        "stubs": stubs,
    }


def safe_json(data):
    """`data` as JSON that holds no `<`, `>` or `&`, safe as the text of any HTML element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(SCRIPT_UNSAFE)


def widget_html(data):
    """The widget's placeholder element: the data and a message for browsers without JS."""
    return (
        '<div class="exercise-widget" data-exercise-widget data-search-exclude>\n'
        f"<template data-exercise-data>{safe_json(data)}</template>\n"
        f'<noscript><p class="exercise-widget__noscript">{html.escape(NOSCRIPT)}</p></noscript>\n'
        "</div>"
    )


TRAINING_NOSCRIPT = "This page trains a neural network in your browser: it needs JavaScript."


def training_data(catalog):
    """The training widget's data: the ops its network uses (`trained_ops`), the session's
    defaults (training/session.py), and their moons, drawn before Python is ready."""
    from dataclasses import asdict

    from training.session import USES, Config, dataset

    ops = trained_ops(catalog, "closures", USES)
    found = {"trained_ops": ops, "config": asdict(Config()), "moons": dataset(Config())}
    return found | {"find_the_bug": find_the_bug(catalog)}


def find_the_bug(catalog):
    """`{Break-it switch: find-the-bug tab}`: the tab whose engine has the bug that switch
    plants in training (each engine exercise's `breaks`); its address is `#tab-<tab>`."""
    return {e.breaks: e.id for e in catalog.values() if e.breaks}


def microgpt_data(catalog):
    """The microgpt widget's data: the local-gradient ops its Value class uses (`trained_ops`)
    and the session's defaults (microgpt/session.py)."""
    from dataclasses import asdict

    from microgpt.culprit import OPS
    from microgpt.names import VOCAB_SIZE
    from microgpt.session import Config

    ops = trained_ops(catalog, "local_grads", OPS.values())
    return {"trained_ops": ops, "config": asdict(Config()), "vocab_size": VOCAB_SIZE}


def training_html(data):
    """The training widget's placeholder element: its data and a message for no JavaScript."""
    return (
        '<div class="training-widget" data-training-widget data-search-exclude>\n'
        f"<template data-training-data>{safe_json(data)}</template>\n"
        f'<noscript><p class="exercise-widget__noscript">{html.escape(TRAINING_NOSCRIPT)}</p>'
        "</noscript>\n</div>"
    )


MICROGPT_NOSCRIPT = "This page trains microgpt in your browser: it needs JavaScript."


def microgpt_html(data):
    """The microgpt widget's placeholder element: its data and a message for no JavaScript."""
    return (
        '<div class="microgpt-widget" data-microgpt-widget data-search-exclude>\n'
        f"<template data-microgpt-data>{safe_json(data)}</template>\n"
        f'<noscript><p class="exercise-widget__noscript">{html.escape(MICROGPT_NOSCRIPT)}</p>'
        "</noscript>\n</div>"
    )


ENGINE_NOSCRIPT = "Checking your engine runs Python in your browser: it needs JavaScript."


def engine_check_data(design, catalog, to_html):
    """The data of "Check my whole engine" on its own (widget/src/exercise/engine-check.js), for
    a ```` ```engine-check ```` block naming a design: the design's op tabs as the exercise
    widget has them, for the code saved there and their rungs of the ladder (ladder.js counts
    the hints); no words of theirs are shown, and no solution."""
    if design not in DESIGNS:
        raise ValueError(
            f"an ```engine-check block names one design ({', '.join(DESIGNS)}), not {design!r}"
        )
    tabs = op_tabs(catalog, design)
    hidden = {"prompt": "", "why": "", "solutions": {}, "fix": []}
    exercises = [
        _exercise(tab, to_html, "")
        | KINDS[tab.kind].widget(tab, catalog)
        | hidden
        | {"hints": [""] * len(tab.hints)}
        for tab in tabs
    ]
    return {"exercises": exercises, "designs": {design: _design(design, catalog)}}


def engine_check_html(data):
    """The placeholder element of "Check my whole engine": its data, and words for no JavaScript."""
    return (
        '<div class="engine-check-widget" data-engine-check-widget data-search-exclude>\n'
        f"<template data-exercise-data>{safe_json(data)}</template>\n"
        f'<noscript><p class="exercise-widget__noscript">{html.escape(ENGINE_NOSCRIPT)}</p>'
        "</noscript>\n</div>"
    )


def work_html(body):
    """The element "Download my work" and "Load work" hydrate (widget/src/work/panel.js)."""
    if body.strip():
        raise ValueError("a ```work block takes nothing inside it")
    message = "Saving and loading your work needs JavaScript to be turned on."
    return f'<div class="mg-work-panel" data-work-panel><noscript>{message}</noscript></div>'
