"""The static server: MIME types, cache headers, sub-path hosting, isolation headers."""

import gzip
import http.client
import urllib.error
import urllib.parse
import urllib.request

import pytest

from devtools.serve import start


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


fetcher = urllib.request.build_opener(NoRedirect)


def fetch(url):
    """(status, headers, body) of a GET, redirects and errors included."""
    try:
        with fetcher.open(url) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A tiny site: a page, a wasm file, a module and a sub-folder with its own page."""
    root = tmp_path_factory.mktemp("site")
    (root / "index.html").write_text("<h1>home</h1>")
    (root / "lesson").mkdir()
    (root / "lesson" / "index.html").write_text("<h1>lesson</h1>")
    (root / "assets" / "pyodide").mkdir(parents=True)
    (root / "assets" / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (root / "assets" / "pyodide" / "pyodide.mjs").write_text("export {}")
    (root / "assets" / "course").mkdir()
    (root / "assets" / "course" / "worker.js").write_text("")
    return root


@pytest.fixture(scope="module")
def site(root):
    with start(root) as running:
        yield running.url


@pytest.fixture(scope="module")
def sub_path_site(root):
    with start(root, base="course", isolate=True) as running:
        yield running.url


def test_listens_on_loopback_only(site):
    """The URL the server reports is on 127.0.0.1."""
    assert site.startswith("http://127.0.0.1:") and site.endswith("/")


@pytest.mark.parametrize(
    ("path", "mime"),
    [
        ("", "text/html"),
        ("assets/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("assets/pyodide/pyodide.mjs", "text/javascript"),
        ("assets/course/worker.js", "text/javascript"),
    ],
)
def test_mime_types(site, path, mime):
    """WebAssembly and JavaScript modules get the types browsers require of them."""
    status, headers, _ = fetch(site + path)
    assert status == 200
    assert headers.get_content_type() == mime


def test_pyodide_is_cached_and_pages_revalidated(site):
    """Pyodide's files may be cached for long; pages and course assets are revalidated."""
    assert "immutable" in fetch(site + "assets/pyodide/pyodide.asm.wasm")[1]["Cache-Control"]
    assert fetch(site)[1]["Cache-Control"] == "no-cache"
    assert fetch(site + "assets/course/worker.js")[1]["Cache-Control"] == "no-cache"


def test_no_isolation_headers_unless_asked(site):
    """Without --isolate there is no COOP/COEP."""
    assert "Cross-Origin-Embedder-Policy" not in fetch(site)[1]


def test_connections_are_kept_alive(site):
    """Two requests travel over one HTTP/1.1 connection."""
    url = urllib.parse.urlsplit(site)
    connection = http.client.HTTPConnection(url.hostname, url.port)
    sockets = []
    for path in ("/", "/lesson/"):
        connection.request("GET", path)
        response = connection.getresponse()
        assert (response.status, response.version) == (200, 11)
        response.read()
        sockets.append(connection.sock)
    connection.close()
    assert sockets[0] is not None and sockets[0] is sockets[1]


def test_folders_are_not_listed(site):
    """A folder without index.html is a 404, not a listing of its files."""
    assert fetch(site + "assets/pyodide/")[0] == 404


def test_sub_path_serves_the_site(sub_path_site):
    """Under --base /course/, the site's pages and files are served below /course/."""
    assert sub_path_site.endswith("/course/")
    status, _, body = fetch(sub_path_site + "lesson/")
    assert (status, body) == (200, b"<h1>lesson</h1>")


def test_sub_path_redirects_the_root_and_hides_the_rest(sub_path_site):
    """`/` and `/course` redirect to `/course/`; paths outside it are 404."""
    origin = sub_path_site.removesuffix("course/")
    for url in (origin, origin + "course"):
        status, headers, _ = fetch(url)
        assert (status, headers["Location"]) == (302, "/course/")
    assert fetch(origin + "index.html")[0] == 404


def test_isolate_sends_coop_and_coep(sub_path_site):
    """--isolate adds the headers that make the page cross-origin isolated."""
    headers = fetch(sub_path_site)[1]
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["Cross-Origin-Embedder-Policy"] == "require-corp"


def test_compress_gzips_for_browsers_that_accept_it(root):
    with start(root, compress=True) as running:
        url = running.url + "assets/pyodide/pyodide.mjs"
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, br"})
        with urllib.request.urlopen(request) as response:
            body, headers = response.read(), response.headers
        assert headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
        assert int(headers["Content-Length"]) == len(body)
        assert gzip.decompress(body) == b"export {}"
        assert headers["Cache-Control"].endswith("immutable")
        assert fetch(url)[2] == b"export {}", "a client that does not accept gzip gets the file"
        assert fetch(running.url + "missing.js")[0] == 404


def test_a_gzipped_file_is_revalidated_with_a_304_and_counted_as_sent(root):
    """A `no-cache` page revalidated gets a 304, gzipped or not, as real hosts answer; what the
    server counts as sent is the bytes it sent."""
    with start(root, compress=True) as running:
        url = running.url + "lesson/"
        asking = {"Accept-Encoding": "gzip"}
        with urllib.request.urlopen(urllib.request.Request(url, headers=asking)) as response:
            sent, headers = response.read(), response.headers
        modified = headers["Last-Modified"]
        assert headers["Content-Encoding"] == "gzip" and headers["Cache-Control"] == "no-cache"
        assert gzip.decompress(sent) == b"<h1>lesson</h1>", "a page at its folder's address"
        assert modified
        again = urllib.request.Request(url, headers={**asking, "If-Modified-Since": modified})
        assert fetch(again)[0] == 304
        older = "Thu, 01 Jan 1970 00:00:00 GMT"
        stale = urllib.request.Request(url, headers={**asking, "If-Modified-Since": older})
        assert fetch(stale)[0] == 200
        assert running.server.sent["/lesson/"] == 2
        assert running.server.sent_bytes["/lesson/"] == 2 * len(sent)
        running.server.forget_sent()
        assert not running.server.sent and not running.server.sent_bytes
