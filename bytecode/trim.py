"""Runs inside Pyodide (see build.mjs): the standard library the course needs, compiled, and
the course's own archives, compiled.

Pyodide's python_stdlib.zip holds only sources, which CPython compiles at every start. The
course needs a fraction of them: the modules Pyodide imports as it starts, and those the worker
and the grader import. `start()` notes what is loaded and records every later import (with an
audit hook: the grader's sandbox takes the modules a learner's code imported out of sys.modules
again); `grade_everything()` takes the grader down every path it has; `finish()` zips what was
imported, compiled by this very interpreter, without sources, and `fallback.py` as
`_stdlib_fallback`, told which modules the zip lacks, to import those from the full standard
library if a learner's code ever asks for one.
"""

import sys

STDLIB = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
FALLBACK = "_stdlib_fallback"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # a fixed date: the same sources give the same bytes

# Code that fails every way the grader can report, so that what each report imports is seen.
ERROR_BODIES = (
    "self.grad += (other.data",  # SyntaxError
    "self.grad += undefined_name",  # NameError, with its suggestion
    "self.grad += other.data / 0",  # ZeroDivisionError
    "self.grad += 'a' + 1",  # TypeError
    "def f(n):\n    return f(n + 1)\nf(0)",  # RecursionError
    "import sys\nsys.exit(1)",  # SystemExit
    "import js",  # blocked
    "print('out')\nself.grad += float('nan')",  # printed output, not a number
    "self.grad += sum.grad",  # a builtin's name, found on the line
    "def _backward():\n    pass",  # cues read from the code
)

_imported = set()
_recording = False


def _record(event, args):
    if _recording and event == "import":
        _imported.add(args[0])


def start():
    """Everything loaded so far counts; so does every import from now until `finish()`."""
    global _recording
    _imported.update(sys.modules)
    _recording = True
    sys.addaudithook(_record)  # hooks cannot be removed: `_recording` turns it off


def grade_everything(course_dir):
    """Grades every answer of the maintainers' table, and the error bodies above."""
    import json

    sys.path.insert(0, course_dir)
    from grader.exercises import expectations, load_catalog
    from grader.judge import judge_json
    from runner.observe import observe_json

    def grade(exercise, bodies):  # both halves, as the two workers run them
        bodies_json = json.dumps(bodies)
        judge_json(exercise, bodies_json, observe_json(exercise, bodies_json))

    for exercise, _, bodies, _, _ in expectations(load_catalog()):
        grade(exercise.id, bodies)
    for body in ERROR_BODIES:
        grade("mul", {"mul": body})
    from training import worker  # what a training session imports, a few steps of it

    worker.start("{}", "{}").steps_json(2, 1000, True)
    worker.start(json.dumps({"mul": "self.grad += 1 / 0"}), "{}").steps_json(1, 1000, False)
    from microgpt import worker as gpt  # and a microgpt session's, with a tuple a nudge finds wrong

    training = gpt.start(json.dumps({"log": "(x,)"}), json.dumps({"n_embd": 4}), "ada\nbo\n")
    training.steps_json(1, 1000)
    training.sample_json(1, 1.0)
    check_whole_engines()


def check_whole_engines():
    """ "Check my whole engine" (grader/fuzz_page.py and runner/fuzz.py, as the two workers run
    them): a wrong closure found, shrunk and judged; a class that does not compile; a time-out."""
    import json

    from grader import fuzz_page
    from runner.fuzz import ask_json

    wrong = {"mul": "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"}
    for bodies in [wrong, {"mul": "self.grad += (other.data"}]:
        bodies_json = json.dumps(bodies)
        search = fuzz_page.begin("closures", bodies_json, 50, 0, "[]")
        answer = json.loads(search.first_json)
        while "ask" in answer:
            ran = ask_json("closures", bodies_json, json.dumps(answer["ask"]))
            answer = json.loads(search.next_json(ran))
    search = fuzz_page.begin("local_grads", json.dumps({"mul": "(other.data, self.data)"}), 5, 0)
    search.next_json(None, "still running after 5 s")


def finish(fallback_source):
    """The trimmed zip's bytes, and the sorted names of the modules it holds."""
    global _recording
    _recording = False
    import io
    import zipfile

    source = zipfile.ZipFile(STDLIB)
    modules = {_module(info.filename): info for info in source.infolist() if _module(info.filename)}
    kept = sorted(name for name in set(modules) & _imported if _from_zip(name))
    missing = sorted(set(modules) - _imported)
    fallback_source += f"\nMISSING = frozenset({missing!r})\n"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in kept:
            filename = modules[name].filename
            _write(archive, filename + "c", _compiled(source.read(filename), filename))
        filename = f"{FALLBACK}.py"
        _write(archive, filename + "c", _compiled(fallback_source.encode(), filename))
    return out.getvalue(), kept


def _from_zip(name):
    """False for the modules frozen into the interpreter (os, io, site…): never read from a zip."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    return spec is not None and (spec.origin or "").startswith(STDLIB + "/")


def _module(filename):
    """The module a file of the zip holds ("json/__init__.py": "json"), or None."""
    if not filename.endswith(".py"):
        return None
    return filename.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _compiled(source, filename, folder=STDLIB):
    """A .pyc that needs no source beside it: hash-based, unchecked (PEP 552). Tracebacks name
    the file as they would have from the full zip. The standard library is compiled without
    docstrings and asserts; the course keeps both."""
    import importlib.util
    import marshal

    path, optimize = (f"{folder}/{filename}", 2) if folder else (filename, 0)
    code = compile(source, path, "exec", dont_inherit=True, optimize=optimize)
    unchecked_hash_based = (0b01).to_bytes(4, "little")
    header = importlib.util.MAGIC_NUMBER + unchecked_hash_based + importlib.util.source_hash(source)
    return header + marshal.dumps(code)


def _write(archive, name, data):
    import zipfile

    info = zipfile.ZipInfo(name, ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


# the course's code; exercises' code is text
PACKAGES = ("runner/", "grader/", "training/", "microgpt/")


def compile_archive(data):
    """The zip `data` with every module of the course's packages compiled by this interpreter
    to a `.pyc` beside which no source is needed; other files kept as they are."""
    import io
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(bytes(data)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename.endswith(".py") and info.filename.startswith(PACKAGES):
                _write(archive, info.filename + "c", _compiled(content, info.filename, ""))
            else:
                _write(archive, info.filename, content)
    return out.getvalue()
