"""What the built site needs besides its pages, all built from pinned local sources.

- `assets/pyodide/<version>/`: Pyodide's core files from the pinned npm package.
- `assets/python/<hash>/runner.zip`: the `runner` package, the learner's side of grading, with
  `runner/data.json` (grader/runner_data.py), `training` and `microgpt`: all that a worker
  running learner code gets.
- `assets/python/<hash>/grader.zip`: the modules of `grader` the judge imports (never the
  command line, grader/cli/) and `exercises/`, for the judge.
- `assets/python/<hash>/names.txt`: microgpt's data (microgpt/names.py), which the microgpt
  widget fetches and hands its runner.
- `assets/python/<hash>/python_stdlib.zip`: the standard library trimmed to what the course
  imports; Pyodide's full one stays in `assets/pyodide/<version>/` for what it lacks.
  All three archives hold bytecode, compiled by Pyodide itself (bytecode/build.mjs).
- `assets/course/`: widget.js, worker-<hash>.js, early.js and widget.css, bundled by
  `widget/build.mjs`, which is told the paths above. The worker is named by its content: a tab
  opened before a redeploy never starts the new deploy's worker. early.js is also inlined first
  in the <head> of every page with an exercise, to start Python while the page loads.

The folders under `assets/pyodide/` and `assets/python/` are named by version or content, so a
host can let browsers keep them for good (HOSTING.md).
"""

import functools
import gzip
import hashlib
import html
import io
import json
import posixpath
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from grader.exercises import BUILT_CATALOG, built_catalog
from grader.handin import course_id
from grader.runner_data import runner_data
from microgpt.names import NAMES_TXT, load  # microgpt's data, its own download

from .head import insert_first
from .imports import module_path, needed

COURSE_DIR = "assets/course"
PYODIDE_DIR = "assets/pyodide"
PYTHON_DIR = "assets/python"
WIDGET_JS = f"{COURSE_DIR}/widget.js"
WIDGET_CSS = f"{COURSE_DIR}/widget.css"
WORKER_GLOB = "worker-*.js"  # worker-<hash>.js
EARLY_JS = f"{COURSE_DIR}/early.js"
# the elements widget.js mounts: those that run Python, of which some are graded by a judge
# (training and microgpt hold sessions in runners only)
GRADED_WIDGETS = ("data-exercise-widget", "data-engine-check-widget", "data-verify-page")
PYTHON_WIDGETS = (*GRADED_WIDGETS, "data-training-widget", "data-microgpt-widget")
WIDGETS = (
    *PYTHON_WIDGETS,
    *("data-work-panel", "data-progress-page", "data-certificate", "data-erase-data"),
)
BUNDLE_FILES = ("widget.js", WORKER_GLOB, "early.js", "widget.css")
RUNNER_ZIP = "runner.zip"
GRADER_ZIP = "grader.zip"
STDLIB_ZIP = "python_stdlib.zip"
# the lock file is not among them: the worker passes Pyodide its `info` (no packages) itself
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
BYTECODE_FILES = ("build.mjs", "trim.py", "fallback.py")
RUNNER_PACKAGES = ("runner", "training", "microgpt")
# what the judge's worker imports (widget/src/worker/): grader.zip holds these and what they
# import, never the command line (grader/cli/) nor what only it imports
JUDGE_ENTRIES = ("grader.judge", "grader.fuzz_page")
# the sealed runner's entry for hand-ins: an instructor's, never the browser's
SEALED_ENTRY = "runner/seal.py"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # a fixed date: the same sources give the same bytes


class AssetError(RuntimeError):
    """A build step that cannot run; the message says what to do."""


def node_modules(root):
    """The project's `node_modules/`, or an AssetError saying how to install it."""
    path = Path(root) / "node_modules"
    if not (path / "pyodide").is_dir():
        raise AssetError(f"{path} has no pyodide package: run `npm ci` (or `make setup`) first")
    return path


def build(root, site_dir, catalog, *, snapshot=False):
    """Every asset, in the order they need each other; `snapshot` turns on Python's memory
    snapshots (widget/src/worker/snapshot.js). Returns the files a first visit's Python
    downloads."""
    site_dir = Path(site_dir)
    pyodide_dir = copy_pyodide(root, site_dir)
    runner_zip, grader_zip, stdlib_zip = python_archives(root, site_dir, catalog)
    names = write_names(site_dir)
    lock = json.loads((node_modules(root) / "pyodide" / "pyodide-lock.json").read_text())
    under_assets = lambda path: path.relative_to(site_dir / "assets").as_posix()  # noqa: E731
    bundle_widget(
        root,
        site_dir,
        {  # paths relative to the site's assets/ folder
            "pyodide": under_assets(pyodide_dir) + "/",
            "stdlib": under_assets(stdlib_zip),
            "runner": under_assets(runner_zip),
            "grader": under_assets(grader_zip),
            "names": under_assets(names),
            "lock": {"info": lock["info"], "packages": {}},
            "snapshot": snapshot,
            # which exercises, as defined: a work file names the course it was saved from, and
            # each exercise's version, so that a regrade flags only the exercises that changed
            "course": course_id(catalog),
            "exercises": {exercise.id: exercise.version for exercise in catalog.values()},
            # what each download holds: progress counts it whatever the host's compression
            "sizes": {
                "wasm": (pyodide_dir / "pyodide.asm.wasm").stat().st_size,
                "stdlib": stdlib_zip.stat().st_size,
                "runner": runner_zip.stat().st_size,
                "grader": grader_zip.stat().st_size,
            },
        },
    )
    pyodide_files = [pyodide_dir / name for name in PYODIDE_FILES if name != STDLIB_ZIP]
    return [*pyodide_files, stdlib_zip, runner_zip, grader_zip, site_dir / worker_js(site_dir)]


def worker_js(site_dir):
    """The worker's path in the site (`assets/course/worker-<hash>.js`): the newest, where a
    site folder rebuilt without cleaning keeps older ones."""
    found = sorted(
        (Path(site_dir) / COURSE_DIR).glob(WORKER_GLOB), key=lambda path: path.stat().st_mtime_ns
    )
    if not found:
        raise AssetError(f"{site_dir}/{COURSE_DIR} has no {WORKER_GLOB}: build the site again")
    return found[-1].relative_to(site_dir).as_posix()


def download_size(files):
    """What downloading `files` costs: `{"raw": bytes, "gzip": bytes}`, the second as a host
    that compresses sends them (gzip's default level, as nginx, Apache and GitHub Pages use)."""
    sizes = [_sizes(path, path.stat().st_mtime_ns) for path in map(Path, files)]
    return {"raw": sum(raw for raw, _ in sizes), "gzip": sum(packed for _, packed in sizes)}


@functools.lru_cache(maxsize=64)
def _sizes(path, mtime_ns):
    """`(raw, gzip)` bytes of the file at `path` as of `mtime_ns`: `make dev` rebuilds ask again
    for Pyodide's unchanged 11 MB, which takes gzip ~0.4 s."""
    data = path.read_bytes()
    return len(data), len(gzip.compress(data, compresslevel=6, mtime=0))


def start_python_early(page_html, folder, site_dir):
    """A page with a Python widget starts Python's workers first thing in its <head>: Pyodide loads
    while the page's style sheets arrive and the page is parsed and rendered (the build's
    early.js, widget/src/entry/early-start.js, inlined: a script after a style sheet, or one
    fetched, would wait for it). `folder` is the page's, in the site. A page with nothing to
    grade starts no judge (`data-judge` absent)."""
    if not any(widget in page_html for widget in PYTHON_WIDGETS):
        return page_html
    script = (Path(site_dir) / EARLY_JS).read_text(encoding="utf-8").strip().replace("</", "<\\/")
    worker_path = posixpath.relpath(worker_js(site_dir), folder or ".")
    worker = html.escape(worker_path, quote=True)
    judge = " data-judge" if any(widget in page_html for widget in GRADED_WIDGETS) else ""
    return insert_first(page_html, f'<script data-worker="{worker}"{judge}>{script}</script>')


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
        # Pyodide prints its whole minified module with an error: the short lines say what failed
        said = [line for line in done.stderr.strip().splitlines() if len(line) < 500]
        errors = "\n".join(said[-25:])
        raise AssetError(f"{script} failed:\n{done.stdout[-2000:]}{errors}")
    return done.stdout


def bundle_widget(root, site_dir, python_assets):
    """Run `widget/build.mjs`: widget.js, worker-<hash>.js, early.js and widget.css in
    `<site>/assets/course/`; `python_assets` tells the bundles where Python's files are."""
    outdir = Path(site_dir) / COURSE_DIR
    node(root, "widget/build.mjs", "--outdir", outdir, "--python-assets", json.dumps(python_assets))
    missing = [name for name in BUNDLE_FILES if not any(outdir.glob(name))]
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


def python_files(root, packages):
    """The files of `packages` as `(path in zip, bytes)`, sorted; caches, the Node harness, the
    golden transcripts and the sealed runner's entry (for maintainers, not for a browser) left
    out."""
    root = Path(root)
    for package in packages:
        for path in sorted((root / package).rglob("*")):
            name = path.relative_to(root).as_posix()
            left_out = path.suffix in (".pyc", ".mjs") or path.name == "transcript.txt"
            left_out |= name == SEALED_ENTRY
            if path.is_file() and "__pycache__" not in path.parts and not left_out:
                yield name, path.read_bytes()


def judge_files(root):
    """grader/'s modules that the judge's entries import, as `(path in zip, bytes)`, sorted."""
    judged = (module_path(name, root) for name in needed(*JUDGE_ENTRIES, root=root))
    paths = sorted(path for path in judged if path.is_relative_to(Path(root, "grader")))
    return [(path.relative_to(root).as_posix(), path.read_bytes()) for path in paths]


def zip_bytes(files):
    """A zip of `files` (`(path, bytes)`), with fixed dates: the same files give the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files:
            info = zipfile.ZipInfo(path, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return out.getvalue()


def runner_sources(root, catalog):
    """runner.zip's sources: `runner/` and data.json, the exercises as the runner needs them."""
    known = json.dumps(runner_data(catalog), sort_keys=True, separators=(",", ":"))
    return zip_bytes([*python_files(root, RUNNER_PACKAGES), ("runner/data.json", known.encode())])


def grader_sources(root, catalog):
    """grader.zip's sources: the judge's modules, `exercises/` (`.meta/` included) and the
    catalog as this build read it (grader/exercises.py)."""
    built = (f"grader/{BUILT_CATALOG.name}", built_catalog(catalog))
    return zip_bytes([*judge_files(root), *python_files(root, ["exercises"]), built])


def compiled_archives(root, catalog):
    """A folder holding runner.zip, grader.zip and python_stdlib.zip, compiled by
    bytecode/build.mjs. That takes Pyodide a few seconds in Node, so the folder is kept in
    node_modules/.cache/ for the same inputs."""
    root = Path(root)
    sources = {RUNNER_ZIP: runner_sources(root, catalog), GRADER_ZIP: grader_sources(root, catalog)}
    key = hashlib.sha256(pyodide_version(root).encode())
    for name in BYTECODE_FILES:
        key.update((root / "bytecode" / name).read_bytes())
    for data in sources.values():
        key.update(data)
    cached = node_modules(root) / ".cache" / "course-bytecode" / key.hexdigest()[:16]
    if not cached.is_dir():
        # a folder of this process's own: builds running side by side (pytest's workers) each
        # compile, and the first to finish names the cache
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix=cached.name + ".", dir=cached.parent))
        for name, data in sources.items():
            (partial / f"source-{name}").write_bytes(data)
        runner, grader = (partial / f"source-{name}" for name in (RUNNER_ZIP, GRADER_ZIP))
        args = ("--runner-zip", runner, "--grader-zip", grader, "--out-dir", partial)
        node(root, "bytecode/build.mjs", *args)
        try:
            partial.replace(cached)
        except OSError:  # another build named it first
            shutil.rmtree(partial, ignore_errors=True)
    return cached


def python_archives(root, site_dir, catalog):
    """runner.zip, grader.zip and python_stdlib.zip, compiled, each in
    `<site>/assets/python/<hash>/`: their paths."""
    folder = compiled_archives(root, catalog)
    found = []
    for name in (RUNNER_ZIP, GRADER_ZIP, STDLIB_ZIP):
        staged = Path(site_dir) / PYTHON_DIR / name
        staged.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / name, staged)
        found.append(content_addressed(staged))
    return found


def write_names(site_dir):
    """microgpt's names (microgpt/names.py), one a line, content-addressed beside the archives."""
    path = Path(site_dir) / PYTHON_DIR / NAMES_TXT
    path.write_text("\n".join(load()) + "\n", encoding="utf-8")
    return content_addressed(path)


def content_addressed(path):
    """Move `<folder>/<name>` to `<folder>/<hash of its bytes>/<name>`; returns the new path."""
    path = Path(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    target = path.parent / digest / path.name
    target.parent.mkdir(exist_ok=True)
    path.replace(target)
    return target
