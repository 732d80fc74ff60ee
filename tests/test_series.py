"""course/series.py: the start page's "The series" lists every page of the nav, in its order,
and the build (MkDocs' plugin, or the site step after Zensical) stops when it does not."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from course.options import read_nav
from course.series import SeriesError, check_series, nav_pages

ROOT = Path(__file__).resolve().parent.parent
NAV = [{"Start": "index.md"}, {"One": "one.md"}, {"Part": [{"Two": "part/two.md"}]}]
SERIES = "# Start\n\n## The series\n\n1. Start.\n2. [One](one.md)\n3. [Two](part/two.md#top)\n"


def docs(tmp_path, start=SERIES):
    (tmp_path / "docs").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text(start)
    return tmp_path / "docs"


def test_the_course_s_start_page_lists_its_whole_nav():
    check_series(*read_nav(ROOT / "mkdocs.yml"))
    assert "microgpt.md" in list(nav_pages(read_nav(ROOT / "mkdocs.yml")[1]))


def test_a_start_page_listing_the_nav_in_order_passes(tmp_path):
    check_series(docs(tmp_path), NAV)
    check_series(docs(tmp_path / "x", "# Start\n\nNo list.\n"), NAV)  # no such section: not held
    check_series(tmp_path / "nowhere", NAV)  # no start page: the generator says so


@pytest.mark.parametrize(
    ("start", "message"),
    [
        (
            SERIES.replace("3. [Two](part/two.md#top)\n", "\n## After\n\n[Two](part/two.md)\n"),
            'docs/index.md: "The series" leaves out part/two.md, which mkdocs.yml\'s nav lists: '
            "add a link to each, in the nav's order",
        ),
        (
            SERIES + "4. [Three](three.md)\n",
            'docs/index.md: "The series" lists three.md, which mkdocs.yml\'s nav does not: '
            "take it out of the list, or add it to the nav",
        ),
        (
            SERIES.replace("one.md", "part/two.md", 1).replace("part/two.md#top", "one.md"),
            'docs/index.md: "The series" lists the pages in another order than mkdocs.yml\'s nav '
            "(one.md, part/two.md): list them as the nav does",
        ),
    ],
)
def test_a_start_page_that_disagrees_with_the_nav_is_named_with_the_fix(tmp_path, start, message):
    with pytest.raises(SeriesError, match=f"^{re.escape(message)}$"):
        check_series(docs(tmp_path, start), NAV)


def config(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nnav:\n  - Start: index.md\n  - One: one.md\n"
        f"plugins:\n  - course\nmarkdown_extensions:\n  - course:\n      root: {ROOT}\n"
    )
    docs(tmp_path, "# Start\n\n## The series\n\n1. Start.\n")
    (tmp_path / "docs" / "one.md").write_text("# One\n")


def test_mkdocs_stops_in_one_line(tmp_path):
    config(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert 'docs/index.md: "The series" leaves out one.md' in done.stderr


def test_the_site_step_after_zensical_stops_in_one_line(tmp_path):
    config(tmp_path)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html></html>")
    done = subprocess.run(
        [sys.executable, "-m", "course.site"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert done.stderr.startswith('course: docs/index.md: "The series" leaves out one.md')
