"""The service worker that gives pages on static hosts cross-origin isolation (widget/isolate.js).

It must sit at the site's root: a service worker controls only the pages under its own folder,
and static hosts cannot send the `Service-Worker-Allowed` header that would widen that.
"""

import shutil
from pathlib import Path

SOURCE = "widget/isolate.js"
SITE_PATH = "isolate.js"


def write_service_worker(root, site_dir):
    """Copy the service worker to the site's root."""
    shutil.copyfile(Path(root) / SOURCE, Path(site_dir) / SITE_PATH)
