"""The course at build time: the MkDocs plugin that embeds the exercise widgets; a static server.

- `fences`: finds the ```` ```exercise ```` blocks of a page.
- `widget_data`: the JSON a widget hydrates from, and the HTML that carries it.
- `assets`: what the built site needs besides pages (widget bundle, Pyodide, python.zip).
- `plugin`: the MkDocs plugin that ties these together.
- `serve`: a static server on 127.0.0.1 for the built site (`python -m course.serve`).
"""
