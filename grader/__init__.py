"""The grader of micrograd, in the browser: pure standard library, for CPython and Pyodide."""

from .grade import grade, grade_json

__all__ = ["grade", "grade_json"]
