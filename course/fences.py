"""Find the ```` ```exercise ```` blocks of a Markdown page and replace each with HTML.

A block is a fence whose info string is exactly `exercise` and whose body lists exercise ids,
separated by spaces or new lines. Fences of any other kind are copied unchanged with everything
inside them, so a page can show the block's syntax inside a longer fence.
"""

import re

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*?)\s*$")
INFO = "exercise"


class FenceError(ValueError):
    """A malformed exercise block; the message names its line."""


def replace_exercise_blocks(markdown, render):
    """`markdown` with each exercise block replaced by `render(ids, line)` (line is 1-based)."""
    lines = markdown.splitlines(keepends=True)
    out, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            out.append(lines[i])
            i += 1
            continue
        end = _closing(lines, i + 1, opening["fence"])
        if opening["info"].strip() == INFO:
            ids = _ids(lines, i, end, opening["indent"])
            out.append("\n" + render(ids, i + 1) + "\n\n")
        else:
            out.extend(lines[i : end + 1])
        i = end + 1
    return "".join(out)


def _closing(lines, start, fence):
    """Index of the line closing `fence`, or the last line: an unclosed fence runs to the end."""
    closing = re.compile(rf"^[ \t]*{fence[0]}{{{len(fence)},}}\s*$")
    for i in range(start, len(lines)):
        if closing.match(lines[i]):
            return i
    return len(lines)


def _ids(lines, start, end, indent):
    line = start + 1
    if end == len(lines):
        raise FenceError(f"line {line}: the ```exercise block is never closed")
    if indent:
        raise FenceError(
            f"line {line}: the ```exercise block is indented; start it at the left margin"
        )
    ids = "".join(lines[start + 1 : end]).split()
    if not ids:
        raise FenceError(f"line {line}: the ```exercise block names no exercise")
    repeated = sorted({name for name in ids if ids.count(name) > 1})
    if repeated:
        raise FenceError(f"line {line}: the ```exercise block repeats {', '.join(repeated)}")
    return ids
