"""How site_tests and the benchmark launch Debian's Chromium (Playwright's own download cannot
work on these machines)."""

import shutil

# as root, headless, and making no request of its own to hosts it cannot reach
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def executable():
    """The path of Debian's `chromium`, or None when it is not installed (`make chromium`)."""
    return shutil.which("chromium")
