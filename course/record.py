"""The learner's record pages (docs/progress.md, docs/verify.md): the course's map, which the
site step writes into each of them, as no page being converted sees the others.

    <template data-course-map>{"time_limit": 5, "pages": [
      {"title": "Write the closures", "url": "exercises/",      # from the site's root
       "exercises": [{"id": "add", "label": "__add__", "kind": "op", "design": "closures",
                      "ops": ["add"], "stubs": {"add": "…"}, "version": "3f2a…"}]}]}
    </template>

Pages come in the nav's order (the rest after it, by path), each exercise once, on the first page
whose widget shows its tab. widget/src/record/course.js reads it.
"""

import html
import re

from .series import nav_pages
from .widget_data import safe_json

EMPTY_MAP = "<template data-course-map></template>"
H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1>", re.S)
TAG = re.compile(r"<[^>]+>")
KEPT = ("id", "label", "kind", "design", "ops", "stubs", "version")


def page_url(path):
    """A built page's address from the site's root: `<page>/index.html` -> `<page>/`."""
    return path.removesuffix("index.html")


def page_title(text):
    """The text of a built page's first heading, without its permalink."""
    found = H1.search(text)
    heading = TAG.sub("", re.sub(r'<a class="headerlink".*?</a>', "", found[1])) if found else ""
    return html.unescape(heading).strip()


def nav_order(nav):
    """Each nav page's built path (`value.md` -> `value/index.html`) and its place."""
    built = lambda page: "index.html" if page == "index.md" else page[:-3] + "/index.html"  # noqa: E731
    return {built(page): place for place, page in enumerate(nav_pages(nav))}


def course_map(shown, nav, time_limit):
    """The map from `shown`: `{built path: (title, [exercise data, as the page's widgets hold
    it])}`."""
    order = nav_order(nav)
    seen, pages = set(), []
    for path in sorted(shown, key=lambda path: (order.get(path, len(order)), path)):
        title, exercises = shown[path]
        kept = [{key: e[key] for key in KEPT} for e in exercises if e["id"] not in seen]
        seen |= {e["id"] for e in kept}
        if kept:
            pages.append({"title": title, "url": page_url(path), "exercises": kept})
    return {"time_limit": time_limit, "pages": pages}


def fill_map(text, found):
    """A page's HTML with the course map in its empty `data-course-map` template, if it has
    one."""
    if EMPTY_MAP not in text:
        return text
    return text.replace(EMPTY_MAP, f"<template data-course-map>{safe_json(found)}</template>")
