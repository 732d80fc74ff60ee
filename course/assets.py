"""What the built site needs besides its pages, all built from pinned local sources.

- `assets/pyodide/<version>/`: Pyodide's core files from the pinned npm package.
- `assets/python/<hash>/python.zip`: the `grader` package and `exercises/`, for the worker to
  unpack into Pyodide.
- `assets/python/<hash>/python_stdlib.zip`: the standard library trimmed to what the course
  imports, compiled by Pyodide itself (stdlib/build.mjs); Pyodide's full one stays in
  `assets/pyodide/<version>/` for what it lacks.
- `assets/course/`: widget.js, worker.js, early.js and widget.css, bundled by
  `widget/build.mjs`, which is told the paths above. early.js is also inlined first in the
  <head> of every page with an exercise, to start Python while the page loads.

The folders under `assets/pyodide/` and `assets/python/` are named by version or content, so a
host can let browsers keep them for good (see README.md).
"""

import hashlib
import html
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

from mkdocs.utils import get_relative_url

from .head import insert_first

COURSE_DIR = "assets/course"
PYODIDE_DIR = "assets/pyodide"
PYTHON_DIR = "assets/python"
WIDGET_JS = f"{COURSE_DIR}/widget.js"
WIDGET_CSS = f"{COURSE_DIR}/widget.css"
WORKER_JS = f"{COURSE_DIR}/worker.js"
PYTHON_ZIP = "python.zip"
STDLIB_ZIP = "python_stdlib.zip"
EARLY_JS = f"{COURSE_DIR}/early.js"
BUNDLE_FILES = ("widget.js", "worker.js", "early.js", "widget.css")
# the lock file is not among them: the worker passes Pyodide its `info` (no packages) itself
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
STDLIB_FILES = ("build.mjs", "trim.py", "fallback.py")
PYTHON_PACKAGES = ("grader", "exercises")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # a fixed date: the same sources give the same bytes


class AssetError(RuntimeError):
    """A build step that cannot run; the message says what to do."""


def node_modules(root):
    """The project's `node_modules/`, or an AssetError saying how to install it."""
    path = Path(root) / "node_modules"
    if not (path / "pyodide").is_dir():
        raise AssetError(f"{path} has no pyodide package: run `npm ci` (or `make setup`) first")
    return path


def build(root, site_dir, *, snapshot=False):
    """Every asset, in the order they need each other; `snapshot` turns on Python's memory
    snapshots (widget/src/snapshot.js)."""
    pyodide_dir = copy_pyodide(root, site_dir)
    course_zip = write_python_zip(root, site_dir)
    stdlib_zip = write_stdlib_zip(root, site_dir, course_zip)
    site_dir = Path(site_dir)
    lock = json.loads((node_modules(root) / "pyodide" / "pyodide-lock.json").read_text())
    bundle_widget(
        root,
        site_dir,
        {  # paths relative to the site's assets/ folder
            "pyodide": pyodide_dir.relative_to(site_dir / "assets").as_posix() + "/",
            "stdlib": stdlib_zip.relative_to(site_dir / "assets").as_posix(),
            "course": course_zip.relative_to(site_dir / "assets").as_posix(),
            "lock": {"info": lock["info"], "packages": {}},
            "snapshot": snapshot,
        },
    )


def start_python_early(page_html, page_url, site_dir):
    """A page with an exercise starts Python's workers first thing in its <head>: Pyodide loads
    while the page's style sheets arrive and the page is parsed and rendered (the build's
    early.js, widget/src/page/early-start.js, inlined: a script after a style sheet, or one
    fetched, would wait for it)."""
    if "data-exercise-widget" not in page_html:
        return page_html
    script = (Path(site_dir) / EARLY_JS).read_text(encoding="utf-8").strip().replace("</", "<\\/")
    worker = html.escape(get_relative_url(WORKER_JS, page_url), quote=True)
    return insert_first(page_html, f'<script data-worker="{worker}">{script}</script>')


def node(root, script, *args, stdin=None):
    """Run `node <script> <args>` in `root`, `stdin` as its input; its output, or an AssetError
    with its errors."""
    node_modules(root)
    executable = shutil.which("node")
    if executable is None:
        raise AssetError("`node` is not on PATH: install Node.js 20 or later")
    done = subprocess.run(
        [executable, str(script), *map(str, args)],
        cwd=root,
        input=stdin,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        # Pyodide prints its whole minified module with an error: the last lines say what failed
        errors = "\n".join(done.stderr.strip().splitlines()[-25:])
        raise AssetError(f"{script} failed:\n{done.stdout[-2000:]}{errors}")
    return done.stdout


def bundle_widget(root, site_dir, python_assets):
    """Run `widget/build.mjs`: widget.js, worker.js and widget.css in `<site>/assets/course/`;
    `python_assets` tells the worker where Pyodide, the standard library and python.zip are."""
    outdir = Path(site_dir) / COURSE_DIR
    node(root, "widget/build.mjs", "--outdir", outdir, "--python-assets", json.dumps(python_assets))
    missing = [name for name in BUNDLE_FILES if not (outdir / name).exists()]
    if missing:
        raise AssetError(f"widget/build.mjs did not write {', '.join(missing)} to {outdir}")


def pyodide_version(root):
    return json.loads((node_modules(root) / "pyodide" / "package.json").read_text())["version"]


def copy_pyodide(root, site_dir):
    """Copy Pyodide's core files into `<site>/assets/pyodide/<version>/`; returns that folder."""
    source = node_modules(root) / "pyodide"
    target = Path(site_dir) / PYODIDE_DIR / pyodide_version(root)
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        # copy2 keeps the package's mtime, so Last-Modified stays the same across builds
        shutil.copy2(source / name, target / name)
    return target


def python_files(root):
    """The files of python.zip as `(path in zip, file)`, sorted; caches left out."""
    root = Path(root)
    for package in PYTHON_PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path.relative_to(root).as_posix(), path


def write_python_zip(root, site_dir):
    """Write `<site>/assets/python/<hash>/python.zip`: `grader/` and `exercises/`, `.meta/`
    included; returns its path."""
    staged = Path(site_dir) / PYTHON_DIR / PYTHON_ZIP
    staged.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(staged, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in python_files(root):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return content_addressed(staged)


def write_stdlib_zip(root, site_dir, course_zip):
    """Write `<site>/assets/python/<hash>/python_stdlib.zip`, the trimmed and compiled standard
    library, by stdlib/build.mjs; returns its path. Building it takes Pyodide a few
    seconds in Node, so the result is kept in node_modules/.cache/ for the same inputs."""
    root = Path(root)
    key = hashlib.sha256(pyodide_version(root).encode() + Path(course_zip).read_bytes())
    for name in STDLIB_FILES:
        key.update((root / "stdlib" / name).read_bytes())
    cached = node_modules(root) / ".cache" / "course-stdlib" / f"{key.hexdigest()[:16]}.zip"
    if not cached.is_file():
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(".partial")
        node(root, "stdlib/build.mjs", "--course-zip", course_zip, "--out", partial)
        partial.replace(cached)
    staged = Path(site_dir) / PYTHON_DIR / STDLIB_ZIP
    shutil.copyfile(cached, staged)
    return content_addressed(staged)


def content_addressed(path):
    """Move `<folder>/<name>` to `<folder>/<hash of its bytes>/<name>`; returns the new path."""
    path = Path(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    target = path.parent / digest / path.name
    target.parent.mkdir(exist_ok=True)
    path.replace(target)
    return target
