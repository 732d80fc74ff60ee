"""The course's build as either generator runs it: its settings (course/options.py), the `course`
Markdown extension on a page (course/extension.py) and the site step (course/site.py).

Both MkDocs and Zensical build with them; tests/test_plugin.py builds with MkDocs, and
site_tests/test_zensical.py with Zensical."""

import json
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from course import assets
from course.extension import CourseExtension
from course.lessons import LessonError
from course.options import Options, OptionsError, read_config
from course.site import Course, SiteError

ROOT = Path(__file__).resolve().parent.parent
DATA = re.compile(r"<template data-exercise-data>(.*?)</template>", re.S)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"time_limit": 0}, "time_limit is in seconds: give a number above 0, up to 600"),
        ({"time_limit": "5"}, "time_limit takes a number of seconds, not '5'"),
        ({"solutions": 1}, "solutions takes true or false, not 1"),
        ({"memory_snapshots": True}, "unknown setting 'memory_snapshots' (the course takes root,"),
    ],
)
def test_a_setting_the_course_cannot_use_is_named(settings, message):
    with pytest.raises(OptionsError, match=re.escape(message)):
        Options.of(settings)


def test_the_settings_are_read_from_the_extension_s_entry(tmp_path):
    """As the site step reads them: `!ENV` and Python tags are no obstacle, site_dir is kept."""
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: t\nsite_url: !ENV SITE_URL\nsite_dir: public\n"
        "markdown_extensions:\n  - toc:\n      permalink: true\n"
        "  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "  - course:\n      time_limit: 7\n      solutions: false\n"
    )
    options, site_dir = read_config(config)
    assert options == Options(time_limit=7, solutions=False)
    assert site_dir == tmp_path / "public"


def test_a_config_without_the_extension_says_where_to_list_it(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: t\nplugins:\n  - course\n")
    with pytest.raises(OptionsError, match="no `course` under markdown_extensions: add"):
        read_config(config)


def convert(text, **settings):
    """`text` converted by Python-Markdown alone with the course's extension, as a generator
    that hands the extension no page would."""
    md = markdown.Markdown(
        extensions=["pymdownx.superfences", CourseExtension(root=str(ROOT), **settings)]
    )
    return md.convert(text)


def test_the_extension_turns_a_page_s_fences_into_widgets_and_formulas():
    page = convert("# Page\n\nPython is {{ python_download }}.\n\n$x$\n\n```exercise\nmul\n```\n")
    data = json.loads(DATA.search(page).group(1))
    assert [exercise["id"] for exercise in data["exercises"]] == ["mul"]
    assert data["time_limit"] == 5 and data["exercises"][0]["solutions"]
    assert re.search(
        r"Python is \d+\.\d MB \(\d+\.\d MB from a host that does not compress\)", page
    )
    assert "{{" not in page


def test_the_extension_s_settings_reach_the_widget():
    data = DATA.search(convert("```exercise\nmul\n```\n", time_limit=9, solutions=False))
    exercise = json.loads(data.group(1))
    assert exercise["time_limit"] == 9 and exercise["exercises"][0]["solutions"] == {}


class ZensicalPage:
    """What Zensical's context preprocessor holds: the page and the generator's config."""

    def __init__(self, path):
        self.path = path


def test_errors_name_the_page_zensical_hands_over():
    from markdown.preprocessors import Preprocessor

    class ContextPreprocessor(Preprocessor):  # Zensical's, by name
        page = ZensicalPage("lessons/broken.md")
        config = {"root_dir": str(ROOT), "markdown_extensions": [], "mdx_configs": {}}

        def run(self, lines):
            return lines

    md = markdown.Markdown(extensions=[CourseExtension()])
    md.preprocessors.register(ContextPreprocessor(md), "rendering_context", 0)
    with pytest.raises(LessonError, match=r"^lessons/broken.md, line 3: unknown exercise 'mull'"):
        md.convert("# Page\n\n```exercise\nmull\n```\n")


@pytest.fixture(scope="module")
def course():
    return Course.of(ROOT, Options(every_exercise_shown=False))  # sites of one page or none


def test_the_site_step_finishes_a_page_once(course, tmp_path):
    """Python's early start and the policy, first in the <head>; a second pass changes nothing."""
    course.write_site(tmp_path)  # the assets, early.js among them
    page = (
        '<html><head><meta charset="utf-8"><script type="module" src="../'
        f'{assets.WIDGET_JS}"></script></head><body><div data-exercise-widget></div></body></html>'
    )
    once = course.finish_page(page, "lesson", tmp_path)
    head = once.split("</head>")[0]
    assert head.index("Content-Security-Policy") < head.index('<script data-worker="../assets')
    assert course.finish_page(once, "lesson", tmp_path) == once


@pytest.mark.parametrize(
    ("head", "message"),
    [
        ("", "need assets/course/widget.js as a module: list it under extra_javascript"),
        (
            f'<script src="{assets.WIDGET_JS}"></script>',
            "need assets/course/widget.js as a module",
        ),
        (
            f'<script src="{assets.WIDGET_JS}" type="module"></script>',
            "need assets/course/widget.css: list it under extra_css",
        ),
    ],
)
def test_a_site_whose_widgets_lack_their_script_or_styles_is_refused(
    course, tmp_path, head, message
):
    (tmp_path / "index.html").write_text(
        f"<html><head>{head}</head><body><div data-work-panel></div></body></html>"
    )
    with pytest.raises(SiteError, match=re.escape(f"index.html: its widgets {message}")):
        course.write_site(tmp_path)


def test_the_site_step_as_a_command_says_what_is_missing(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        f"site_name: t\nmarkdown_extensions:\n  - course:\n      root: {ROOT}\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "course.site"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert done.stderr == f"course: {tmp_path / 'site'} holds no built site: build it first\n"


def test_hints_formulas_are_typeset_and_checked_as_a_page_s_are():
    from course.extension import _typeset

    hint = '<p><span class="arithmatex">\\(x^2\\)</span></p>'
    exercises = [{"id": "mul", "prompt": "", "hints": [hint], "why": ""}]
    _typeset(exercises, ROOT)
    assert '<span class="katex">' in exercises[0]["hints"][0]
    exercises[0]["hints"] = [hint.replace("x^2", "0.5 \times 2")]
    with pytest.raises(ValueError, match=r"^exercises/mul/exercise.toml: the formula '0.5 imes 2'"):
        _typeset(exercises, ROOT)
    exercises[0]["hints"] = [hint.replace("x^2", "\\frac{")]
    with pytest.raises(ValueError, match=r"^exercises/mul/exercise.toml: KaTeX cannot render"):
        _typeset(exercises, ROOT)


def test_a_site_that_shows_some_exercise_on_no_page_is_refused(course, tmp_path, monkeypatch):
    """A new exercise folder that no ```exercise block names would go unnoticed."""
    from course.widget_data import widget_data, widget_html

    shown = widget_html(widget_data(["diamond"], course.catalog, markdown.markdown))
    (tmp_path / "index.html").write_text(
        f'<html><head><script src="{assets.WIDGET_JS}" type="module"></script>'
        f'<link rel="stylesheet" href="{assets.WIDGET_CSS}"></head><body>{shown}</body></html>'
    )
    monkeypatch.setattr(course, "options", Options())  # the default: every exercise shown
    missing = [
        name for name in course.catalog if name not in {"diamond", *course.catalog["diamond"].ops}
    ]
    with pytest.raises(SiteError, match=re.escape(not_shown(missing))):
        course.write_site(tmp_path)
    monkeypatch.setattr(course, "options", Options(every_exercise_shown=False))
    course.write_site(tmp_path)


def not_shown(missing):
    """The build's one line for exercises whose tabs no page shows."""
    one = len(missing) == 1
    return (
        f"exercises/{missing[0]}/exercise.toml: no page shows the "
        f"{'tab of exercise' if one else 'tabs of exercises'} {', '.join(missing)}: "
        f"name {'it' if one else 'each'} in an ```exercise block (an op's tab also comes with a "
        "graph exercise that runs it; AUTHORING.md), or delete "
        f"{'its folder' if one else 'their folders'}, or set every_exercise_shown: false under "
        "course in mkdocs.yml"
    )


def test_an_op_tab_on_no_page_is_refused_though_check_my_whole_engine_runs_its_code(
    course, tmp_path, monkeypatch
):
    """ "Check my whole engine" lists every op tab of its design, for their saved code, but
    shows none: an op exercise that no block names, and no graph exercise brings, is code the
    learner has nowhere to write."""
    catalog = course.catalog
    brought = {(e.design, op) for e in catalog.values() if e.kind == "graph" for op in e.ops}
    left_out = next(
        e for e in catalog.values() if e.kind == "op" and (e.design, e.ops[0]) not in brought
    )
    named = " ".join(name for name in catalog if name != left_out.id)
    body = convert(f"```exercise\n{named}\n```\n\n```engine-check\n{left_out.design}\n```\n")
    listed = {tab["id"] for data in DATA.findall(body) for tab in json.loads(data)["exercises"]}
    assert left_out.id in listed, "the engine check's data lists the op tab"
    (tmp_path / "index.html").write_text(
        f'<html><head><script src="{assets.WIDGET_JS}" type="module"></script>'
        f'<link rel="stylesheet" href="{assets.WIDGET_CSS}"></head><body>{body}</body></html>'
    )
    monkeypatch.setattr(course, "options", Options())
    with pytest.raises(SiteError, match=f"^{re.escape(not_shown([left_out.id]))}$"):
        course.write_site(tmp_path)
