"""Bytes: the files a visit fetched, raw and as a compressing host would send them."""

import json
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent


def file_for(url, site_url, root):
    """The file of `root` the server answered `url` with (index.html for a folder)."""
    path = urlsplit(url).path[len(urlsplit(site_url).path) :]
    file = Path(root) / path
    return file / "index.html" if path.endswith("/") or not path else file


def compressed(files):
    """`{file: {raw, gzip, brotli}}`, computed by Node's zlib (the Python venv has no brotli)."""
    files = sorted({str(file) for file in files})
    done = subprocess.run(
        ["node", str(HERE / "compress.mjs"), *files], capture_output=True, text=True, check=True
    )
    return {Path(file): sizes for file, sizes in json.loads(done.stdout).items()}


def own_code(files, pyodide_dirs):
    """The JavaScript and CSS among `files`, Pyodide's own files left out."""
    return [
        file
        for file in files
        if file.suffix in (".js", ".mjs", ".css")
        and not any(file.resolve().is_relative_to(d.resolve()) for d in pyodide_dirs)
    ]


def total(sizes, files):
    return {kind: sum(sizes[file][kind] for file in files) for kind in ("raw", "gzip", "brotli")}
