"""The course at build time: what turns docs/ into the course, under MkDocs or Zensical.

- `extension`: the `course` Markdown extension, each page's work (both generators run it).
- `pagecode`: a lesson page's fences and claims, and running its code.
- `lessons`: what is done to each page (code, graphs, quizzes, exercises, formulas).
- `widget_data`: the JSON a widget hydrates from, and the HTML that carries it.
- `assets`: what the built site needs besides pages (widget bundle, Pyodide, the archives).
- `site`: the site step: the assets copied in, every page finished (`python -m course.site`).
- `options`: the course's settings, under the extension in mkdocs.yml.
- `plugin`: the MkDocs plugin, which runs the site step under MkDocs.
"""


def makeExtension(**settings):  # noqa: N802 (Python-Markdown finds `course` by this name)
    from .extension import CourseExtension  # noqa: PLC0415 (Markdown only, when it asks)

    return CourseExtension(**settings)
