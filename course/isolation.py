"""The course's service worker (widget/isolate.js): it gives pages on static hosts cross-origin
isolation, and keeps the whole course offline after one visit (course/offline.py).

It must sit at the site's root: a service worker controls only the pages under its own folder,
and static hosts cannot send the `Service-Worker-Allowed` header that would widen that.
"""

import json
from pathlib import Path

SOURCE = "widget/isolate.js"
SITE_PATH = "isolate.js"


def write_service_worker(root, site_dir, deploy):
    """Write the service worker to the site's root, for `deploy` (course/offline.py): its first
    line names the deploy, so that each deploy's script differs and browsers update to it."""
    source = (Path(root) / SOURCE).read_text(encoding="utf-8")
    script = f"const DEPLOY = {json.dumps(deploy)};\n{source}"
    (Path(site_dir) / SITE_PATH).write_text(script, encoding="utf-8")
