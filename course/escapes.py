r"""Backslashes a TOML string took for escapes, where TeX was meant.

In a quiz's or an exercise's TOML, `"$0.5 \times 2$"` holds a tab and "imes": `\t` is an
escape there. Markdown then turns the tab into spaces, and KaTeX typesets "0.5 imes 2" without a
word, so the build looks where the text is still as TOML read it. A control character (other
than a line break) is always such a lost escape; a line break is one where it starts a TeX
command's name inside a formula (`\nabla`, `\neq`), since a formula's own line breaks start
anything else.
"""

import re

CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
EATEN_N = re.compile(r"\n(?=(?:abla|eq|eg|otin|ot|ewline)(?![A-Za-z]))")
FORMULA = re.compile(r"\$\$?(?P<tex>[^$]+)\$")
ESCAPED = {"\t": "t", "\b": "b", "\f": "f", "\r": "r", "\n": "n"}
BLANKS = re.compile(r"[\x00-\x20\x7f]+")


def lost_escape(tex):
    """What formula `tex` lost to a TOML string's escapes, in a sentence, or None."""
    found = CONTROL.search(tex) or EATEN_N.search(tex)
    return found and _said(tex, found, "the formula")


def lost_escape_in(text):
    """The same for Markdown with formulas between `$` signs, as a TOML string gave it."""
    found = CONTROL.search(text)
    if found:
        return _said(text, found, "the text")
    for formula in FORMULA.finditer(text):
        problem = lost_escape(formula["tex"])
        if problem:
            return problem
    return None


def _said(text, found, what):
    char = found[0]
    start = max(0, found.start() - 30)
    seen = BLANKS.sub(" ", text[start : found.start()] + text[found.end() : found.end() + 30])
    if char not in ESCAPED:
        return f"{what} {seen.strip()!r} holds the control character U+{ord(char):04X}: remove it"
    command = "\\" + ESCAPED[char] + re.match(r"[A-Za-z]*", text[found.end() :])[0]
    return (
        f"{what} {seen.strip()!r} lost the backslash of {command}: a TOML string read "
        f"{command[:2]} as an escape; write that text as a '''literal''' string, "
        f'or \\{command} in a "basic" one'
    )
