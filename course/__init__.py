"""The course at build time: the MkDocs plugin that embeds the exercise widgets.

- `pagecode`: a lesson page's fences and claims, and running its code.
- `lessons`: what the plugin does to each page (code, graphs, quizzes, exercises, formulas).
- `widget_data`: the JSON a widget hydrates from, and the HTML that carries it.
- `assets`: what the built site needs besides pages (widget bundle, Pyodide, python.zip).
- `plugin`: the MkDocs plugin that ties these together.
"""
