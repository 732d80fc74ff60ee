"""The MkDocs plugin: exercise blocks become widgets, and the build ships what they run on."""

from pathlib import Path

import markdown
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from grader.exercises import ExerciseError, load_catalog

from . import assets, csp, isolation, lessons
from .check_graphs import write_check_graphs
from .prerender import PrerenderError
from .widget_data import (
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


def download_text(size):
    """`size` (assets.download_size) said for a learner."""
    mb = lambda n: f"{n / 1e6:.1f} MB"  # noqa: E731
    return f"{mb(size['gzip'])} ({mb(size['raw'])} from a host that does not compress)"


class CourseConfig(base.Config):
    """The plugin's options, under `plugins: - course:` in mkdocs.yml (HOSTING.md)."""

    # the folder holding grader/, exercises/, widget/ and node_modules/ (default: mkdocs.yml's)
    root = c.Optional(c.Dir(exists=True))
    # seconds a learner's run may take before it is stopped
    time_limit = c.Type((int, float), default=5)
    # ship isolate.js, a service worker that adds COOP/COEP for hosts that cannot send headers
    service_worker = c.Type(bool, default=True)
    # give every page a Content-Security-Policy <meta> tag (course/csp.py)
    content_security_policy = c.Type(bool, default=True)
    # "Show solution" (after an attempt) and the comparison with the reference (after a pass);
    # false leaves them out of the pages (the runner's archive still holds the references)
    solutions = c.Type(bool, default=True)
    # save Python's memory after the first start and restore it on later visits
    # (widget/src/worker/snapshot.js): Pyodide's snapshots are private API, so off unless asked
    memory_snapshot = c.Type(bool, default=False)


class CoursePlugin(BasePlugin[CourseConfig]):
    """`plugins: [course]` in mkdocs.yml. Its hooks below stand in the order MkDocs calls them."""

    def __init__(self):
        self.root = None  # the course's folder (on_config)
        self.catalog = None  # the exercises, read once (on_config)
        self.markdown = None  # renders prompts, hints and "why" like the pages (on_config)
        self.python_download = ""  # the size of Python's first download, said (on_files)
        self.graphs = None  # each check's graph, laid out (on_files)

    def on_config(self, config):
        """First: reads the exercises (an error in one stops the build) and adds the widget's
        script and styles to every page."""
        self.root = Path(self.config.root or Path(config.config_file_path).parent).resolve()
        if not 0 < self.config.time_limit <= 600:
            raise PluginError("course: time_limit is in seconds: give a number above 0, up to 600")
        exercises = self.root / "exercises"
        if not exercises.is_dir():
            raise PluginError(f"{exercises} is missing: the course reads its exercises there")
        try:
            self.catalog = load_catalog(exercises)
        except ExerciseError as error:
            raise PluginError(str(error)) from error
        self.markdown = markdown.Markdown(
            extensions=config.markdown_extensions, extension_configs=config.mdx_configs
        )
        script = c.ExtraScriptValue(assets.WIDGET_JS)
        script.type = "module"
        config.extra_javascript.append(script)
        config.extra_css.append(assets.WIDGET_CSS)
        config.extra_css.append(lessons.KATEX_CSS)
        return config

    def on_files(self, files, config):
        """Before any page: builds the assets the pages inline or name (the bundle's early
        start, Python's download size, the check graphs)."""
        try:
            snapshot = self.config.memory_snapshot
            downloads = assets.build(self.root, config.site_dir, self.catalog, snapshot=snapshot)
            self.python_download = download_text(assets.download_size(downloads))
            self.graphs = write_check_graphs(self.root, config.site_dir, self.catalog)
        except (assets.AssetError, PrerenderError) as error:
            raise PluginError(str(error)) from error
        return files

    def on_page_markdown(self, markdown_text, page, config, files):
        """Runs the page's code, checks its claims, and turns its fences into HTML."""
        markdown_text = markdown_text.replace(PYTHON_DOWNLOAD, self.python_download)
        widgets = {
            "exercise": self._widget,
            "training": self._training,
            "microgpt": self._microgpt,
            "work": work_html,
        }
        try:
            return lessons.prepare(
                markdown_text, page.file.src_uri, self.root, self._to_html, widgets
            )
        except (lessons.LessonError, PrerenderError) as error:
            raise PluginError(str(error)) from error

    def on_page_content(self, html, page, config, files):
        """Renders the page's math and graphs into its HTML, at build time."""
        try:
            return lessons.finish(html, self.root)
        except PrerenderError as error:
            raise PluginError(f"{page.file.src_uri}: {error}") from error

    def on_post_template(self, output_content, template_name, config):
        """Static templates, 404.html among them, are pages too: they get the policy."""
        if not self.config.content_security_policy or not template_name.endswith(".html"):
            return output_content
        return csp.add_policy(output_content)

    def on_post_page(self, output, page, config):
        """The page's early start of Python, and its Content-Security-Policy."""
        output = assets.start_python_early(output, page.url, config.site_dir)
        return csp.add_policy(output) if self.config.content_security_policy else output

    def on_post_build(self, config):
        """Last: KaTeX's fonts and the service worker, beside the pages."""
        try:
            lessons.copy_katex(self.root, config.site_dir)
            if self.config.service_worker:
                isolation.write_service_worker(self.root, config.site_dir)
        except lessons.LessonError as error:
            raise PluginError(str(error)) from error

    def on_serve(self, server, config, builder):
        """`make dev`, after the first build: a change to an exercise, the Python or the widget
        rebuilds the site too."""
        folders = (
            "exercises",
            "grader",
            "runner",
            "training",
            "microgpt",
            "bytecode",
            "widget/src",
            "widget/styles",
        )
        for folder in folders:
            server.watch(str(self.root / folder))
        return server

    # private helpers -------------------------------------------------------------------------

    def _widget(self, ids):
        data = widget_data(ids, self.catalog, self._to_html, self.graphs)
        data["time_limit"] = self.config.time_limit
        data["service_worker"] = self.config.service_worker
        if not self.config.solutions:
            for exercise in data["exercises"]:
                exercise["solutions"] = {}
        return widget_html(data)

    def _training(self, body):
        if body.strip():
            raise ValueError("a ```training block takes nothing inside it")
        data = training_data(self.catalog)
        data["time_limit"] = self.config.time_limit
        return training_html(data)

    def _microgpt(self, body):
        if body.strip():
            raise ValueError("a ```microgpt block takes nothing inside it")
        data = microgpt_data(self.catalog)
        data["time_limit"] = self.config.time_limit
        return microgpt_html(data)

    def _to_html(self, text):
        return self.markdown.reset().convert(text)
