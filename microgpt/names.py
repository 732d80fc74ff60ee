"""The data: first names, one a line, and the tokens a name is read as.

microgpt trains on makemore's `names.txt`; this course trains on the first names of the 1990 US
Census (public domain), as the `names` package on PyPI ships them (MIT, pinned in
requirements.txt): a registry package the build can install anywhere. The build writes them to
the site as `names.txt` (course/assets.py), which the microgpt widget fetches for its runner.
"""

from importlib import resources
from pathlib import Path

LETTERS = "abcdefghijklmnopqrstuvwxyz"
BOS = len(LETTERS)  # the token that starts and ends every name
VOCAB_SIZE = len(LETTERS) + 1
CENSUS_FILES = ("dist.female.first", "dist.male.first")  # a name, then its frequencies, a line
NAMES_TXT = "names.txt"  # where the browser's runner has them (see load)


def load():
    """Every name once, lower case, the most frequent first (women's, then men's). Where the
    `names` package is not installed (the browser's runner), the names are read from
    `names.txt` in Python's working directory, the site's names.txt as the build wrote it,
    which the page's worker writes there before a lesson's code runs."""
    try:
        census = [resources.files("names").joinpath(name).read_text() for name in CENSUS_FILES]
    except ModuleNotFoundError:
        return Path(NAMES_TXT).read_text(encoding="utf-8").split()
    found = {}
    for text in census:
        for line in text.splitlines():
            if line.strip():
                found.setdefault(line.split()[0].lower(), None)
    return list(found)


def encode(name):
    """A name's tokens: BOS, one token a letter, BOS."""
    return [BOS, *(LETTERS.index(letter) for letter in name), BOS]


def decode(tokens):
    return "".join(LETTERS[token] for token in tokens if token != BOS)
