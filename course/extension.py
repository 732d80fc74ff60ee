"""The `course` Markdown extension: what both generators run on each page.

MkDocs (with Material) and Zensical both convert pages with Python-Markdown and the extensions
mkdocs.yml lists; Zensical runs no MkDocs plugin. So the page work lives here:

- before conversion, the page's code is run and its fences become HTML (`lessons.prepare`:
  graphs, quizzes, source, the widgets);
- after it, the formulas are typeset and code blocks made focusable (`lessons.finish`).

A page is told by the generator: Zensical hands it over in its context preprocessor, MkDocs in
the tree processor that makes links relative. What a page needs of the built assets (Python's
download size, the check graphs' files) comes from `course.site.staged`, built once a process.
"""

from pathlib import Path

import markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from . import lessons
from .options import EXTENSION, Options, OptionsError
from .prerender import PrerenderError, render_math_each
from .site import Course, SiteError
from .widget_data import (
    engine_check_data,
    engine_check_html,
    microgpt_data,
    microgpt_html,
    training_data,
    training_html,
    widget_data,
    widget_html,
    work_html,
)

# written in a page, replaced by the size of Python's first download, as this build's files are
PYTHON_DOWNLOAD = "{{ python_download }}"


class CourseExtension(Extension):
    def __init__(self, **settings):
        # checked at the first page, not here: MkDocs loads extensions while it reads its
        # config, and prints a traceback for whatever they raise (its plugin says it in a line)
        self.settings = settings
        super().__init__()

    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        page = _PageWork(md, self.settings)
        # first, on the page as written, before Python-Markdown's own preprocessors (30 and below)
        md.preprocessors.register(_Prepare(md, page), "course", 1000)
        # last, once the widgets' and graphs' HTML is back in the page
        md.postprocessors.register(_Finish(md, page), "course", 0)


class _PageWork:
    """What the two processors share for one Markdown instance: the generator's page and
    config, and the course they come from."""

    def __init__(self, md, settings):
        self.md = md
        self.settings = settings

    def page_and_config(self):
        """`(source path, generator config)`: Zensical's context, or MkDocs' relpath tree
        processor (which holds the file and the config)."""
        for processor in self.md.preprocessors:
            if type(processor).__name__ == "ContextPreprocessor":
                return processor.page.path, processor.config
        if "relpath" in self.md.treeprocessors:
            relpath = self.md.treeprocessors["relpath"]
            return relpath.file.src_uri, relpath.config
        return "the page", None

    def course(self, config):
        """The course, or an OptionsError or SiteError saying what stops it."""
        options = Options.of(self.settings)
        return Course.of(options.course_root(_config_folder(config)), options)


class _Prepare(Preprocessor):
    def __init__(self, md, page):
        super().__init__(md)
        self.page = page

    def run(self, lines):
        path, config = self.page.page_and_config()
        try:
            course = self.page.course(config)
        except (OptionsError, SiteError) as error:
            raise _failure(str(error), config) from error
        to_html = _renderer(config)
        text = "\n".join(lines).replace(PYTHON_DOWNLOAD, course.python_download())
        widgets = {
            "exercise": lambda ids: _exercise(course, ids, to_html),
            "training": lambda body: _trainer(course, body, "training"),
            "microgpt": lambda body: _trainer(course, body, "microgpt"),
            "work": work_html,
            "engine-check": lambda body: _engine_check(course, body, to_html),
        }
        try:
            limit = course.options.time_limit
            return lessons.prepare(text, path, course.root, to_html, widgets, limit).split("\n")
        except (lessons.LessonError, PrerenderError, SiteError) as error:
            raise _failure(str(error), config) from error


class _Finish(Postprocessor):
    def __init__(self, md, page):
        super().__init__(md)
        self.page = page

    def run(self, text):
        path, config = self.page.page_and_config()
        try:
            return lessons.finish(text, self.page.course(config).root)
        except (lessons.LessonError, PrerenderError) as error:
            raise _failure(f"{path}: {error}", config) from error


def _exercise(course, ids, to_html):
    data = widget_data(ids, course.catalog, to_html, course.graphs())
    data["time_limit"] = course.options.time_limit
    if not course.options.solutions:
        for exercise in data["exercises"]:
            exercise["solutions"], exercise["fix"] = {}, []
    _typeset(data["exercises"], course.root)
    return widget_html(data)


def _typeset(exercises, root):
    """The formulas of the exercises' prompts, hints and whys typeset, as a page's are (the
    widget shows their HTML as it is)."""
    for exercise in exercises:
        texts = [exercise["prompt"], *exercise["hints"], exercise["why"]]
        try:
            exercise["prompt"], *exercise["hints"], exercise["why"] = render_math_each(texts, root)
        except PrerenderError as error:
            raise ValueError(f"exercises/{exercise['id']}/exercise.toml: {error}") from error


def _trainer(course, body, kind):
    if body.strip():
        raise ValueError(f"a ```{kind} block takes nothing inside it")
    make_data, make_html = {
        "training": (training_data, training_html),
        "microgpt": (microgpt_data, microgpt_html),
    }[kind]
    data = make_data(course.catalog)
    data["time_limit"] = course.options.time_limit
    return make_html(data)


def _engine_check(course, body, to_html):
    data = engine_check_data(body.strip(), course.catalog, to_html)
    data["time_limit"] = course.options.time_limit
    return engine_check_html(data)


def _failure(message, config):
    """The error the generator says in one line, without a traceback: MkDocs' PluginError
    under MkDocs (imported only there), else a LessonError."""
    if getattr(config, "config_file_path", None) is not None:
        from mkdocs.exceptions import PluginError  # noqa: PLC0415

        return PluginError(message)
    return lessons.LessonError(message)


def _config_folder(config):
    """The config file's folder: MkDocs' `config_file_path`'s, Zensical's project root."""
    if config is None:
        return "."
    if getattr(config, "config_file_path", None):
        return Path(config.config_file_path).parent
    return config["root_dir"]


def _renderer(config):
    """Markdown → HTML for prompts, hints and captions, with the page's extensions but this one."""
    if config is None:
        return markdown.markdown
    extensions = [
        extension
        for extension in config["markdown_extensions"]
        if extension != EXTENSION and not isinstance(extension, CourseExtension)
    ]
    configs = {name: value for name, value in config["mdx_configs"].items() if name != EXTENSION}
    md = markdown.Markdown(extensions=extensions, extension_configs=configs)
    return lambda text: md.reset().convert(text)
