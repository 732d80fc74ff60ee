"""What the built site needs besides its pages, all built from pinned local sources.

- `assets/course/`: widget.js, worker.js and widget.css, bundled by `widget/build.mjs`, and
  python.zip, the `grader` package and `exercises/` for the worker to unpack into Pyodide.
- `assets/pyodide/`: Pyodide's core files from the pinned npm package.
"""

import shutil
import subprocess
import zipfile
from pathlib import Path

COURSE_DIR = "assets/course"
PYODIDE_DIR = "assets/pyodide"
WIDGET_JS = f"{COURSE_DIR}/widget.js"
WIDGET_CSS = f"{COURSE_DIR}/widget.css"
PYTHON_ZIP = f"{COURSE_DIR}/python.zip"
BUNDLE_FILES = ("widget.js", "worker.js", "widget.css")
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
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


def bundle_widget(root, site_dir):
    """Run `node widget/build.mjs --outdir <site>/assets/course`: widget.js, worker.js, CSS."""
    root = Path(root)
    node_modules(root)
    node = shutil.which("node")
    if node is None:
        raise AssetError("`node` is not on PATH: install Node.js 20 or later")
    outdir = Path(site_dir) / COURSE_DIR
    done = subprocess.run(
        [node, "widget/build.mjs", "--outdir", str(outdir)],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise AssetError(f"widget/build.mjs failed:\n{done.stdout}{done.stderr}")
    missing = [name for name in BUNDLE_FILES if not (outdir / name).exists()]
    if missing:
        raise AssetError(f"widget/build.mjs did not write {', '.join(missing)} to {outdir}")


def copy_pyodide(root, site_dir):
    """Copy Pyodide's core files into `<site>/assets/pyodide/`."""
    source = node_modules(root) / "pyodide"
    target = Path(site_dir) / PYODIDE_DIR
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        # copy2 keeps the package's mtime, so Last-Modified stays the same across builds
        shutil.copy2(source / name, target / name)


def python_files(root):
    """The files of python.zip as `(path in zip, file)`, sorted; caches left out."""
    root = Path(root)
    for package in PYTHON_PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path.relative_to(root).as_posix(), path


def write_python_zip(root, site_dir):
    """Write `<site>/assets/course/python.zip`: `grader/` and `exercises/`, `.meta/` included."""
    target = Path(site_dir) / PYTHON_ZIP
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in python_files(root):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return target
