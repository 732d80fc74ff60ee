"""Every repository path that a comment, a docstring or a doc names exists, so that a file moved
or renamed leaves no reader looking for it. A path counts when it starts with one of the
repository's top-level folders; what git ignores (the build's output) and what the build writes
inside its archives are not in the tree, and are allowed."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# paths inside the archives the build writes (course/assets.py), not in the repository
IN_ARCHIVES = {"runner/data.json", "runner/observe.pyc", "grader/catalog.pickle"}


def tracked():
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [path for path in listed.splitlines() if (ROOT / path).is_file()]


def named_paths(text, tops):
    """The repository paths `text` names: `grader/judge.py`, `exercises/*/.meta/`, ..."""
    top = "|".join(map(re.escape, tops))
    pattern = re.compile(rf"(?<![\w./:-])((?:{top})/[\w.*/-]*[\w*])")
    return {match.group(1).rstrip(".") for match in pattern.finditer(text)}


def exists(path):
    return any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()


def ignored(path):
    """Whether git ignores `path` (as a file or a folder): something the build makes."""
    return any(
        subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT).returncode == 0
        for name in (path, f"{path}/")
    )


FILES = tracked()
TOPS = sorted({path.split("/")[0] for path in FILES if "/" in path})


@pytest.mark.parametrize("path", FILES)
def test_every_path_a_file_names_exists(path):
    try:
        text = (ROOT / path).read_text()
    except UnicodeDecodeError:
        return  # not text
    missing = [
        named
        for named in sorted(named_paths(text, TOPS))
        if named not in IN_ARCHIVES and not exists(named) and not ignored(named)
    ]
    assert not missing, f"{path} names paths that do not exist: {', '.join(missing)}"


def test_a_missing_path_is_found():
    gone = "grader/" + "graph.py"  # spelt in two, or this file would name it
    names = named_paths(f"see {gone} and `widget/src/python/python.js`.", TOPS)
    assert names == {gone, "widget/src/python/python.js"}
    assert not exists(gone) and not ignored(gone)
    assert exists("widget/src/python/python.js") and exists("exercises/*/exercise.toml")
    assert ignored("bench/out") and ignored("site")
