"""A deploy's identity and its list of files, for the service worker that keeps the course
offline (widget/isolate.js) and for a tab that must know whether the site changed under it.

The site step, once every page is finished, writes:
- `deploy.json` at the site's root: `{"deploy": id, "files": {path: hash}}`, every file of the
  site but itself and the service worker, each with the first 16 hex digits of its SHA-256.
  The service worker precaches exactly these files, checking each hash: a host swapped to
  another deploy halfway fails the check, so no cache ever holds two deploys' files.
- `<meta name="course-deploy" content="id">` in every page: the deploy the page came from,
  which its module compares with a page instant navigation brings and with `deploy.json`.
- `isolate.js`, the service worker, with the deploy's id on its first line: the browser finds
  an update by the script's bytes, so a new deploy is a new service worker.

The id is a hash of every file's path and content, the pages' taken without their own id.
"""

import hashlib
import json
import re
from pathlib import Path

from . import isolation
from .head import insert_first

DEPLOY_JSON = "deploy.json"
META = re.compile(r'\s*<meta name="course-deploy"[^>]*>')


def digest(data):
    return hashlib.sha256(data).hexdigest()[:16]


def site_files(site_dir):
    """Every file of the site the service worker caches: `{path: bytes}`, sorted by path."""
    site_dir = Path(site_dir)
    left_out = {DEPLOY_JSON, isolation.SITE_PATH}
    paths = sorted(path for path in site_dir.rglob("*") if path.is_file())
    found = {path.relative_to(site_dir).as_posix(): path for path in paths}
    return {name: path.read_bytes() for name, path in found.items() if name not in left_out}


def deploy_id(files):
    """The deploy's id: a hash of every `(path, content)`, pages without their `course-deploy`."""
    whole = hashlib.sha256()
    for name, data in files.items():
        if name.endswith(".html"):
            data = META.sub("", data.decode("utf-8")).encode("utf-8")
        whole.update(f"{name}\0{digest(data)}\n".encode())
    return whole.hexdigest()[:16]


def with_deploy(page, deploy, service_worker):
    """A page's HTML saying its deploy (and, where the course ships one, its service worker)."""
    page = META.sub("", page)
    worker = f' data-service-worker="{isolation.SITE_PATH}"' if service_worker else ""
    return insert_first(page, f'<meta name="course-deploy" content="{deploy}"{worker}>')


def seal(root, site_dir, *, service_worker):
    """Name the site's deploy in its pages, list its files in deploy.json, and write the service
    worker (if `service_worker`) for that deploy. Returns the deploy's id."""
    site_dir = Path(site_dir)
    files = site_files(site_dir)
    deploy = deploy_id(files)
    for name, data in files.items():
        if name.endswith(".html"):
            page = with_deploy(data.decode("utf-8"), deploy, service_worker)
            files[name] = page.encode("utf-8")
            (site_dir / name).write_bytes(files[name])
    listing = {"deploy": deploy, "files": {name: digest(data) for name, data in files.items()}}
    (site_dir / DEPLOY_JSON).write_text(json.dumps(listing, indent=0, sort_keys=True) + "\n")
    if service_worker:
        isolation.write_service_worker(root, site_dir, deploy)
    return deploy
