"""A static server for the built site, on 127.0.0.1 only.

    python -m devtools.serve [--port 8000] [--root site] [--base /] [--isolate] [--compress]

`--base /course/` serves the site under a sub-path, as a GitHub Pages project site would.
`--isolate` adds the cross-origin isolation headers (COOP/COEP) that SharedArrayBuffer needs.
`--compress` sends files gzipped to browsers that accept it, as most hosts do.

From Python (site_tests, the benchmark): `with start("site") as site: ... site.url ...`;
`site.server.sent` counts the files sent, by URL path (what reached the network, not a cache);
`site.server.sent_bytes` their bytes as sent (gzipped where they were).
"""

import argparse
import collections
import datetime
import email.utils
import functools
import gzip
import io
import os
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

HOST = "127.0.0.1"
MIME_TYPES = {
    ".css": "text/css",
    ".html": "text/html",
    ".js": "text/javascript",
    ".json": "application/json",
    ".mjs": "text/javascript",
    ".svg": "image/svg+xml",
    ".wasm": "application/wasm",
    ".woff2": "font/woff2",
    ".xml": "application/xml",
    ".zip": "application/zip",
}
# Pyodide's files sit in a folder named by its version, the zips of Python in folders named by
# their content (course/assets.py): a browser may keep them for good. Everything else may change
# at each build and is revalidated (a 304 when unchanged).
LONG_LIVED = ("assets/pyodide/", "assets/python/")
LONG_CACHE = "public, max-age=604800, immutable"
REVALIDATE = "no-cache"
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class SiteServer(ThreadingHTTPServer):
    """Serves the folder `root` at the URL path `base`."""

    long_lived = LONG_LIVED  # path prefixes (within the site) sent with LONG_CACHE

    def __init__(self, root, *, port=0, base="/", isolate=False, compress=False, quiet=False):
        self.root = str(Path(root).resolve())
        self.base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
        self.isolate = isolate
        self.compress = compress
        self.quiet = quiet
        self.sent = collections.Counter()  # URL path -> files sent (200s)
        self.sent_bytes = collections.Counter()  # URL path -> their bytes, as sent
        self._counting = threading.Lock()
        super().__init__((HOST, port), SiteHandler)

    def count_sent(self, path, size):
        with self._counting:
            self.sent[path] += 1
            self.sent_bytes[path] += size

    def forget_sent(self):
        with self._counting:
            self.sent.clear()
            self.sent_bytes.clear()

    @property
    def url(self):
        return f"http://{HOST}:{self.server_address[1]}{self.base}"

    def handle_error(self, request, client_address):
        # a browser that drops a connection mid-response is no error of the site's
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class SiteHandler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a page's many requests share connections
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def __init__(self, request, client_address, server):
        super().__init__(request, client_address, server, directory=server.root)

    def _redirect_or_refuse(self):
        """None once a redirect to the base or a 404 is sent; False for a path to serve."""
        path = urlsplit(self.path).path
        base = self.server.base
        if path in ("/", base.rstrip("/")) and path != base:
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", base)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if not path.startswith(base):
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        return False

    def send_head(self):
        sending = self._head()
        if sending is not None:  # a file's body follows
            self.server.count_sent(urlsplit(self.path).path, body_size(sending))
        return sending

    def _head(self):
        head = self._redirect_or_refuse()
        if head is not False:
            return head
        path = Path(self.translate_path(self.path))
        if path.is_dir() and urlsplit(self.path).path.endswith("/"):
            path = path / "index.html"  # a page at its folder's address
        accepted = "gzip" in self.headers.get("Accept-Encoding", "")
        if self.server.compress and accepted and path.is_file() and path.suffix != ".woff2":
            return self._send_gzipped(path)
        return super().send_head()

    def _send_gzipped(self, path):
        """As SimpleHTTPRequestHandler sends a file (a 304 to a browser whose copy is as new),
        gzipped: else every revalidation of a `no-cache` file would send it whole."""
        modified = path.stat().st_mtime
        if self._as_new(modified):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        body = gzipped(path, path.stat().st_mtime_ns)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(modified))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def _as_new(self, modified):
        """Whether the request's If-Modified-Since is no older than `modified` (a file's mtime),
        as SimpleHTTPRequestHandler reads it: a date with no zone is UTC, one with If-None-Match
        beside it (which this server never sends) is ignored."""
        since = self.headers.get("If-Modified-Since")
        if not since or "If-None-Match" in self.headers:
            return False
        try:
            date = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError):
            return False
        date = date if date.tzinfo else date.replace(tzinfo=datetime.UTC)
        return date.timestamp() >= int(modified)

    def translate_path(self, path):
        return super().translate_path("/" + path[len(self.server.base) :])

    def list_directory(self, path):
        self.send_error(HTTPStatus.NOT_FOUND)
        return None

    def end_headers(self):
        within_site = urlsplit(self.path).path[len(self.server.base) :]
        long_lived = within_site.startswith(self.server.long_lived)
        self.send_header("Cache-Control", LONG_CACHE if long_lived else REVALIDATE)
        if self.server.isolate:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        super().end_headers()

    def log_message(self, format, *args):
        if not self.server.quiet:
            super().log_message(format, *args)


def body_size(body):
    """The bytes of `body`, a file or BytesIO that send_head returned."""
    if isinstance(body, io.BytesIO):
        return body.getbuffer().nbytes
    return os.fstat(body.fileno()).st_size


@functools.lru_cache(maxsize=256)  # a site's files, and the bench's bare page's
def gzipped(path, mtime_ns):
    """The file's bytes, gzipped (cached until the file changes)."""
    return gzip.compress(path.read_bytes(), compresslevel=6)


class RunningSite:
    """A SiteServer answering in a background thread; a context manager that stops it."""

    def __init__(self, server):
        self.server = server
        self.url = server.url
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start(root="site", *, port=0, base="/", isolate=False, compress=False, quiet=True):
    """Serve `root` in a background thread (port 0: any free port); `.url`, `.stop()`."""
    server = SiteServer(root, port=port, base=base, isolate=isolate, compress=compress, quiet=quiet)
    return RunningSite(server)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m devtools.serve", description="Serve the site.")
    parser.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default 8000)")
    parser.add_argument("--root", default="site", help="the built site (default: site)")
    parser.add_argument("--base", default="/", help="URL path to serve it under (default: /)")
    parser.add_argument("--isolate", action="store_true", help="send COOP/COEP headers")
    parser.add_argument("--compress", action="store_true", help="gzip what the browser accepts")
    args = parser.parse_args(argv)
    if not (Path(args.root) / "index.html").is_file():
        parser.exit(2, f"{args.root}/index.html not found: build the site first (make build)\n")
    try:
        server = SiteServer(
            args.root, port=args.port, base=args.base, isolate=args.isolate, compress=args.compress
        )
    except OSError as error:
        parser.exit(2, f"cannot listen on {HOST}:{args.port}: {error.strerror}\n")
    print(f"Serving {args.root}/ at {server.url}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
