"""The Content-Security-Policy every page ships in a `<meta>` tag.

Scripts may come only from the site itself, plus the page's own inline scripts (mkdocs-material
writes a few, and the early start of Python), each allowed by the SHA-256 hash of its text,
computed when the page is built. No `unsafe-eval` and no `unsafe-inline` for scripts.

Python's workers are created from `blob:` URLs (widget/src/python/python-worker.js) so that they
take this policy too: `connect-src 'self'` keeps code that reaches JavaScript in a worker from
sending anything to another site, and `'wasm-unsafe-eval'` lets them compile Pyodide.
Styles may be inline: CodeMirror, KaTeX and the theme set them on elements.
"""

import base64
import hashlib
import re

from .head import insert_first

DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self' 'wasm-unsafe-eval'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",  # the theme's icons are data: URLs in its CSS
    "font-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self' blob:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
}
# an inline script: a <script> without src whose type, if any, is JavaScript
INLINE_SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>", re.S | re.I)
TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]*)""", re.I)
JAVASCRIPT_TYPES = {"", "module", "text/javascript", "application/javascript"}


def inline_scripts(html):
    """The text of every inline script that the browser would run."""
    for match in INLINE_SCRIPT.finditer(html):
        attrs = match.group("attrs")
        kind = TYPE.search(attrs)
        javascript = not kind or kind[1].lower() in JAVASCRIPT_TYPES
        if javascript and not re.search(r"\bsrc\s*=", attrs, re.I):
            yield match.group("body")


def source_hash(script):
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(html):
    """The policy for a page: DIRECTIVES, with its inline scripts' hashes allowed."""
    hashes = sorted({source_hash(script) for script in inline_scripts(html)})
    directives = {**DIRECTIVES, "script-src": " ".join([DIRECTIVES["script-src"], *hashes])}
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def add_policy(html):
    """`html` with its policy in a <meta> tag, first in <head> (after the charset)."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(html)}">'
    return insert_first(html, meta)
