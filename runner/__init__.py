"""The learner's side of grading: runs their code on an exercise's checks and reports what it
did, as plain data (an observation). Pure standard library, for CPython and Pyodide.

This package imports nothing of `grader/`, which holds the answer key and decides the verdict:
in the browser it is all the interpreter that runs learner code has (with `data.json`, the
exercises' checks and the Value class, written by the build), so that code finds no right
answers to copy, however it walks the interpreter.
"""
