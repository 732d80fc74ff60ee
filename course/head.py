"""Where markup goes to come first in a page's <head>."""

import re

HEAD = re.compile(r"<head[^>]*>", re.I)
CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.I)


def insert_first(html, markup):
    """`html` with `markup` first in its <head>, after the charset (which must stay first);
    `html` unchanged if it has no <head>."""
    anchor = CHARSET.search(html) or HEAD.search(html)
    if anchor is None:
        return html
    return html[: anchor.end()] + "\n    " + markup + html[anchor.end() :]
