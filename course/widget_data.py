"""The data a widget hydrates from, and the HTML element that carries it.

The element is `<div class="exercise-widget" data-exercise-widget>` holding
`<template data-exercise-data>` with this JSON (a template, not a script: mkdocs-material's
instant navigation re-creates every <script> of a new page as executable code):

    {
      "exercises": [                      # in the order the page's block lists them
        {"id": "mul", "label": "__mul__", "slots": ["mul"],
         "prompt": "<p>…</p>", "hints": ["<p>…</p>"], "why": "<p>…</p>",   # HTML
         "stubs": {"mul": "…"}, "solutions": {"mul": "…"},                  # slot -> body
         "test_code": "",                 # the Python `diamond` runs, else ""
         "version": "3f2a…"}              # changes when the exercise's definition changes
      ],
      "scaffold": [{"text": "…"}, {"slot": "add", "indent": 12}, …],   # the Value class
      "slot_labels": {"add": "__add__", …},
      "time_limit": 5,                    # seconds a run may take (the plugin's `time_limit`)
      "service_worker": true              # register isolate.js for cross-origin isolation
    }

The last two are the plugin's settings, added by course/plugin.py.
"""

import html
import json

from grader import scaffold

NOSCRIPT = "This exercise runs Python in your browser: it needs JavaScript to be turned on."

# Characters HTML would read as markup inside the template. JSON allows their \u escapes
# anywhere in a string, so JSON.parse reads the same text back.
SCRIPT_UNSAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


class UnknownExercise(ValueError):
    """An exercise id that `exercises/` does not define."""


def widget_data(ids, catalog, to_html):
    """The widget's data for exercises `ids` of `catalog`, Markdown rendered by `to_html`."""
    unknown = [name for name in ids if name not in catalog]
    if unknown:
        raise UnknownExercise(
            f"unknown exercise {', '.join(map(repr, unknown))}; "
            f"exercises/ defines {', '.join(catalog)}"
        )
    return {
        "exercises": [_exercise(catalog[name], to_html) for name in ids],
        "scaffold": [_segment(piece) for piece in scaffold.segments()],
        "slot_labels": dict(scaffold.SLOT_LABELS),
    }


def _exercise(exercise, to_html):
    return {
        "id": exercise.id,
        "label": exercise.label,
        "slots": list(exercise.slots),
        "prompt": to_html(exercise.prompt),
        "hints": [to_html(hint) for hint in exercise.hints],
        "why": to_html(exercise.why),
        "stubs": dict(exercise.stubs),
        "solutions": dict(exercise.solutions),
        "test_code": exercise.test_code,
        "version": exercise.version,
    }


def _segment(piece):
    if piece[0] == "text":
        return {"text": piece[1]}
    _, slot, indent = piece
    return {"slot": slot, "indent": indent}


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
