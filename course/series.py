"""The start page lists the whole series: every page of mkdocs.yml's `nav`, in its order, as a
link in the section headed "The series" (docs/index.md), so that a page added to the course, or
taken out of it, is never missing from where a learner reads what the course holds. A start
page without that heading is not held to it.
"""

import posixpath
import re
from pathlib import Path

HEADING = re.compile(r"^(?P<level>#{1,6})[ \t]+The series[ \t]*#*[ \t]*$", re.M | re.I)
LINK = re.compile(r"\]\((?P<page>[^)\s#]+\.md)(?:#[^)\s]*)?\)")


class SeriesError(ValueError):
    """The start page's list of the series and the nav disagree; the message says how."""


def nav_pages(nav):
    """The Markdown pages a nav lists, in order (sections opened, links elsewhere left out)."""
    for entry in nav or []:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        if isinstance(value, list):
            yield from nav_pages(value)
        elif isinstance(value, str) and value.endswith(".md") and "://" not in value:
            yield value


def check_series(docs_dir, nav):
    """Raise SeriesError unless the start page's "The series" lists the nav's other pages."""
    pages = list(nav_pages(nav))
    if not pages:
        return
    start, rest = pages[0], pages[1:]
    where = f"{Path(docs_dir).name}/{start}"
    listed = _listed(Path(docs_dir) / start, posixpath.dirname(start))
    if listed is None:
        return
    missing = [page for page in rest if page not in listed]
    if missing:
        raise SeriesError(
            f'{where}: "The series" leaves out {", ".join(missing)}, which mkdocs.yml\'s nav '
            "lists: add a link to each, in the nav's order"
        )
    extra = [page for page in listed if page not in pages]
    if extra:
        raise SeriesError(
            f'{where}: "The series" lists {", ".join(extra)}, which mkdocs.yml\'s nav does not: '
            "take it out of the list, or add it to the nav"
        )
    order = [page for page in dict.fromkeys(listed) if page in rest]
    if order != rest:
        raise SeriesError(
            f'{where}: "The series" lists the pages in another order than mkdocs.yml\'s nav '
            f"({', '.join(rest)}): list them as the nav does"
        )


def _listed(path, folder):
    """The pages the section "The series" of `path` links to, or None without the section (or
    without the page, which the generator names)."""
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    heading = HEADING.search(text)
    if heading is None:
        return None
    level = len(heading["level"])
    after = re.compile(rf"^#{{1,{level}}}[ \t]", re.M).search(text, heading.end())
    section = text[heading.end() : after.start() if after else len(text)]
    return [posixpath.normpath(posixpath.join(folder, m["page"])) for m in LINK.finditer(section)]
