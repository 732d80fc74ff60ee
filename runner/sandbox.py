"""Running the learner's code: output captured and capped, the interpreter left as it was."""

import sys
from contextlib import contextmanager
from importlib.machinery import BuiltinImporter, FrozenImporter, PathFinder

OUTPUT_LIMIT = 20_000  # characters of printed output kept for the learner
RECURSION_LIMIT = 1_000  # well under what Pyodide in a browser worker survives
# Pyodide's packages reach JavaScript (even pyodide.webloop holds a JS function): learner code
# must not post messages or touch the page, so every module of them is hidden during a run
JS_PACKAGES = ("js", "pyodide_js", "pyodide", "_pyodide")
PLAIN_FINDERS = (BuiltinImporter, FrozenImporter, PathFinder)


class CappedOutput:
    """A stand-in for sys.stdout that keeps the first OUTPUT_LIMIT characters, and counts the
    lines of everything written (`lines()`), kept or not."""

    def __init__(self):
        self.parts, self.size, self.truncated = [], 0, False
        self.newlines, self.last = 0, "\n"

    def write(self, text):
        try:
            text = str(text)
        except Exception:  # noqa: BLE001 - an object of the learner's whose __str__ raises
            text = "<unprintable>"
        if type(text) is not str:
            text = "<unprintable>"
        if text:
            self.newlines += text.count("\n")
            self.last = text[-1]
        room = OUTPUT_LIMIT - self.size
        if len(text) > room:
            self.truncated = True
            text = text[: max(room, 0)]
        if text:  # past the cap, a million prints add nothing
            self.parts.append(text)
            self.size += len(text)
        return len(text)

    def flush(self):
        pass

    def text(self):
        return "".join(self.parts)

    def lines(self):
        """How many lines were printed: a last one without its newline counts too."""
        return self.newlines + (self.last != "\n")

    def report(self):
        """The report's fields of what was printed (runner/observe.py documents them)."""
        lines = self.lines()
        return {"stdout": self.text(), "stdout_truncated": self.truncated, "stdout_lines": lines}


@contextmanager
def guarded(output, keep_imports=False):
    """Run learner code with `output` as stdout and stderr, no way into JavaScript, and
    modules (builtins and the grader's own included), every name in them, and the import
    machinery put back as they were afterwards: what the code rebinds or deletes, in
    `builtins`, `json` or `grader.judge` alike, neither sways this verdict nor outlives it.
    `keep_imports`: the modules the code imported stay imported (a lesson page's session,
    runner/notebook.py, whose later blocks use the classes of its earlier ones' imports)."""
    saved_modules = dict(sys.modules)
    saved_names = [
        (vars(module), dict(vars(module)))
        for module in saved_modules.values()
        if isinstance(getattr(module, "__dict__", None), dict)
    ]
    saved_finders = list(sys.meta_path)
    saved_streams = sys.stdout, sys.stderr
    saved_limit = sys.getrecursionlimit()
    sys.stdout = sys.stderr = output
    bridges = [name for name in saved_modules if reaches_javascript(name)]
    sys.modules.update(dict.fromkeys([*JS_PACKAGES, *bridges]))  # None: `import js` fails
    sys.meta_path[:] = [finder for finder in saved_finders if finder in PLAIN_FINDERS]
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(saved_limit)
        sys.stdout, sys.stderr = saved_streams
        sys.meta_path[:] = saved_finders
        kept = _imported(saved_modules) if keep_imports else {}
        _restore(sys.modules, saved_modules | kept)
        for namespace, saved in saved_names:
            _restore(namespace, saved)
        _attach(kept)


def _attach(kept):
    """Each kept submodule named in its package again, as importing it did (`json.tool` after
    `import json.tool`), where putting the package's names back took it away."""
    for name, module in kept.items():
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and sys.modules[parent] is not None:
            setattr(sys.modules[parent], child, module)


def _imported(before):
    """The modules imported since `before`, but for those that reach JavaScript."""
    return {
        name: module
        for name, module in list(sys.modules.items())
        if name not in before and module is not None and not reaches_javascript(name)
    }


def reaches_javascript(module_name):
    return isinstance(module_name, str) and module_name.partition(".")[0] in JS_PACKAGES


def _restore(namespace, saved):
    for name in [name for name in namespace if name not in saved]:
        del namespace[name]
    for name, value in saved.items():
        if namespace.get(name) is not value:
            namespace[name] = value
