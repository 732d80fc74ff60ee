"""course/offline.py: the deploy's id in every page, deploy.json listing every file the service
worker precaches with its hash, and the service worker written for that deploy."""

import hashlib
import json
from pathlib import Path

from course import csp, offline

PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body></html>'
ROOT = Path(__file__).resolve().parent.parent


def make_site(folder):
    (folder / "lesson").mkdir(parents=True)
    (folder / "index.html").write_text(PAGE)
    (folder / "lesson" / "index.html").write_text(PAGE.replace("t<", "lesson<"))
    (folder / "assets" / "python" / "abc").mkdir(parents=True)
    (folder / "assets" / "python" / "abc" / "runner.zip").write_bytes(b"zip bytes")
    return folder


def listing(site):
    return json.loads((site / offline.DEPLOY_JSON).read_text())


def sha16(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def test_deploy_json_lists_every_file_of_the_site_with_its_hash(tmp_path):
    site = make_site(tmp_path / "site")
    deploy = offline.seal(ROOT, site, service_worker=True)
    listed = listing(site)
    assert listed["deploy"] == deploy
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert set(listed["files"]) == files - {"deploy.json", "isolate.js"}
    for name, digest in listed["files"].items():
        assert digest == sha16(site / name), name  # the pages' hashes are of their final bytes


def test_every_page_names_its_deploy_and_the_service_worker(tmp_path):
    site = make_site(tmp_path / "site")
    deploy = offline.seal(ROOT, site, service_worker=True)
    meta = f'<meta name="course-deploy" content="{deploy}" data-service-worker="isolate.js">'
    for page in ("index.html", "lesson/index.html"):
        head = (site / page).read_text()
        assert head.index('<meta charset="utf-8">') < head.index(meta), page
    first = (site / "isolate.js").read_text().splitlines()[0]
    assert first == f'const DEPLOY = "{deploy}";'


def test_sealing_again_changes_nothing_and_a_changed_file_makes_a_new_deploy(tmp_path):
    """The site step may run twice on one site (Zensical's `python -m course.site`)."""
    site = make_site(tmp_path / "site")
    first = offline.seal(ROOT, site, service_worker=True)
    page = (site / "index.html").read_text()
    assert offline.seal(ROOT, site, service_worker=True) == first
    assert (site / "index.html").read_text() == page and page.count("course-deploy") == 1
    (site / "assets" / "python" / "abc" / "runner.zip").write_bytes(b"other bytes")
    second = offline.seal(ROOT, site, service_worker=True)
    assert second != first
    assert f'content="{second}"' in (site / "lesson" / "index.html").read_text()


def test_without_the_service_worker_pages_still_name_their_deploy(tmp_path):
    site = make_site(tmp_path / "site")
    deploy = offline.seal(ROOT, site, service_worker=False)
    assert not (site / "isolate.js").exists()
    assert f'<meta name="course-deploy" content="{deploy}">' in (site / "index.html").read_text()


def test_the_policy_lets_pages_register_a_service_worker_of_the_site_only():
    """A service worker is a `worker-src`: 'self' (blob: cannot be a service worker)."""
    assert csp.DIRECTIVES["worker-src"].split() == ["'self'", "blob:"]
