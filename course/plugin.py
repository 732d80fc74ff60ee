"""The MkDocs plugin: under MkDocs, it runs the site step (course/site.py) once the pages are
written, and has `mkdocs serve` watch the course's code. The pages themselves are the `course`
Markdown extension's work (course/extension.py), which Zensical runs too."""

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from .options import EXTENSION, MISSING_EXTENSION, Options, OptionsError
from .series import SeriesError, check_series
from .site import Course, SiteError
from .spoilers import SpoilerError, check_spoilers

# the folders whose change `mkdocs serve` rebuilds the site for, besides docs/
WATCHED = (
    "exercises",
    "grader",
    "runner",
    "training",
    "microgpt",
    "bytecode",
    "widget/src",
    "widget/styles",
)


class CoursePlugin(BasePlugin):
    """`plugins: [course]` in mkdocs.yml. Its hooks below stand in the order MkDocs calls them."""

    def __init__(self):
        self.course = None  # the course this build makes (on_config)

    def on_config(self, config: MkDocsConfig):
        """First: the course's settings, read from its extension's, its start page's list of
        the series held to the nav, and no page showing an answer before asking for it."""
        if EXTENSION not in config.markdown_extensions:
            raise PluginError(f"mkdocs.yml: {MISSING_EXTENSION}")
        try:
            options = Options.of(config.mdx_configs.get(EXTENSION))
            Course.forget()  # `mkdocs serve` rebuilds: assets from the code as it is now
            folder = Path(config.config_file_path or "mkdocs.yml").parent
            self.course = Course.of(options.course_root(folder), options)
            check_series(config.docs_dir, config.nav)
            check_spoilers(config.docs_dir, config.nav, self.course.catalog, self.course.root)
        except (OptionsError, SiteError, SeriesError, SpoilerError) as error:
            raise PluginError(str(error)) from error
        return config

    def on_post_build(self, config):
        """Last: the assets beside the pages, and each page finished."""
        try:
            self.course.write_site(config.site_dir, config.nav)
        except SiteError as error:
            raise PluginError(str(error)) from error

    def on_serve(self, server, config, builder):
        """`make dev`, after the first build: a change to an exercise, the Python or the widget
        rebuilds the site too."""
        for folder in WATCHED:
            server.watch(str(self.course.root / folder))
        return server
