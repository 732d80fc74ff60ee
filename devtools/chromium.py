"""How site_tests and the benchmark launch Debian's Chromium (Playwright's own download cannot
work on these machines), slow its network down, and say what connection it is on."""

import json
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
    """The path of Debian's `chromium`, or None when it is not installed (`make browsers`): the
    browser a learner has, which the benchmark times."""
    return shutil.which("chromium")


# the headless shell's own: a crash handler, which the full browser always has; without one a
# runner whose learner code wrote over its own memory took the page down with it, where in the
# full browser the page lives on and says Python crashed (site_tests/test_hostile_code.py)
SHELL_ARGS = [*ARGS, "--enable-crash-reporter"]


def headless_shell():
    """The path of Debian's `chromium-headless-shell`, or None (`make browsers`): the same Blink
    and V8 without the browser's own windows, as Playwright tests by default. It opens a page on
    about a third of the CPU the full browser takes, which is what the site tests spend most."""
    return shutil.which("chromium-headless-shell")


def emulate_network(page, mbit_per_s, latency_ms):
    """DevTools' network throttling for `page` (a Playwright page), which covers its workers too;
    returns the DevTools session, for `full_speed`."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    throttle(session, mbit_per_s * 1e6 / 8, latency_ms)
    return session


def full_speed(session):
    """Lifts the throttling that `emulate_network` set on `session`."""
    throttle(session, -1, 0)


def throttle(session, bytes_per_s, latency_ms):
    session.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency_ms,
            "downloadThroughput": bytes_per_s,
            "uploadThroughput": bytes_per_s,
        },
    )


def connection(**fields):
    """A page init script under which `navigator.connection` reports `fields` (saveData=True, or
    effectiveType="2g"): what the page reads before loading Python ahead."""
    return (
        "Object.defineProperty(Navigator.prototype, 'connection', "
        f"{{get: () => ({json.dumps(fields)})}});"
    )
