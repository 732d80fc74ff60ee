"""Imports what the trimmed standard library lacks from Pyodide's full one, fetched the first
time something asks for such a module. Goes into the trimmed zip as `_stdlib_fallback`; the
build appends `MISSING`: the full standard library's modules that the trimmed zip lacks.

`install(fetch)`: `fetch(path)` must write the full standard library's zip at `path`,
synchronously (in the worker, a synchronous request). From then on, the trimmed zip and its
packages' folders are searched through `Stdlib` finders. They are path entry finders, not meta
path finders, so the grader's sandbox, which keeps only the plain meta path finders, keeps them.
"""

import sys
import zipimport

TRIMMED = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
FULL = "/lib/python_stdlib_full.zip"
MISSING = frozenset()  # the build appends the real set


_fetch = None  # set by install()


class Stdlib:
    """Finds modules in one folder of the trimmed zip, and MISSING ones in the full zip's."""

    fetched = False

    def __init__(self, path):
        self.folder = path[len(TRIMMED) :]  # "" or "/package"
        self.trimmed = zipimport.zipimporter(path)

    def find_spec(self, fullname, target=None):
        if fullname not in MISSING:
            return self.trimmed.find_spec(fullname, target)
        if not Stdlib.fetched:
            _fetch(FULL)
            Stdlib.fetched = True
        return zipimport.zipimporter(FULL + self.folder).find_spec(fullname, target)

    def invalidate_caches(self):
        self.trimmed.invalidate_caches()


def install(fetch):
    global _fetch
    _fetch = fetch
    sys.path_hooks.insert(0, _hook)
    for path in [path for path in sys.path_importer_cache if _in_trimmed(path)]:
        del sys.path_importer_cache[path]  # found again, through _hook


def _hook(path):
    if not _in_trimmed(path):
        raise ImportError("not the trimmed standard library")
    return Stdlib(path)


def _in_trimmed(path):
    return path == TRIMMED or path.startswith(TRIMMED + "/")
