"""A learner at the exercise widget, driven through Playwright: the tests read like what they do.

Everything here goes through the widget's testing contract (ARCHITECTURE.md, issue 3):
`[data-exercise-widget]`, tabs named by their labels, the active tab panel with its `.cm-content`
editor and "Run test" button, and `data-verdict` on the result once a run has ended.
"""

import re
import time
from urllib.parse import urlsplit

from playwright.sync_api import Error, expect

RUN_TIMEOUT_MS = 60_000  # covers Python's first load on a slow machine


class Watch:
    """Records every request of a browser context, the page's and its workers', and any that
    leaves 127.0.0.1 (which the browser's dead proxy, conftest.py `nowhere`, fails), and collects
    console errors and uncaught exceptions. It watches without routing: a routed context has no
    HTTP cache, and the site tests' pages then fetched and compiled everything afresh."""

    def __init__(self, context):
        self.requests, self.blocked, self.errors = [], [], []
        context.on("request", self._request)
        context.on("console", self._console)
        context.on("weberror", self._uncaught)

    def _request(self, request):
        url = request.url
        if url.startswith(("blob:", "data:")):  # in the browser's memory: not a request
            return
        self.requests.append(url)
        if urlsplit(url).hostname != "127.0.0.1":
            self.blocked.append(url)

    def _uncaught(self, web_error):
        error = web_error.error
        self.errors.append(f"uncaught: {error.message}\n{error.stack}")

    def _console(self, message):
        if message.type == "error":
            self.errors.append(f"console: {message.text}")


class Learner:
    def __init__(self, page, url):
        self.page, self.url = page, url
        self.widget = page.locator("[data-exercise-widget]").first
        self.python_workers = []  # the page's live Python workers, as Playwright sees them
        self.names = {}  # worker -> its name, read once
        page.on("worker", self._worker)

    def _worker(self, worker):
        # Python's workers are the page's only ones, made from blob: URLs that import
        # assets/course/worker.js (widget/src/python/python-worker.js)
        if worker.url.startswith("blob:"):
            self.python_workers.append(worker)
            worker.on("close", lambda closed: self.python_workers.remove(closed))

    def python_settled(self):
        """Waits until the page says its Python is settled (widget/src/python/python.js: nothing
        under way, the judge and a spare ready) and returns what it announces of it."""
        root = self.page.locator("html")
        expect(root).to_have_attribute("data-python-settled", "true", timeout=RUN_TIMEOUT_MS)
        return {
            key: root.get_attribute(f"data-python-{key}") or ""
            for key in ("judge", "spare", "workers")
        }

    def python_worker(self, role):
        """The page's Python worker of `role`: "judge", or "runner" (the spare, which the next
        run will use), once the page is settled."""
        name = self.python_settled()["judge" if role == "judge" else "spare"]
        return self._named(lambda names: name in names)[name]

    def python_roles(self):
        """The roles of the page's Python workers, sorted, once it is settled and Playwright
        sees the very workers the page announces alive (an ended one closed, a new one seen)."""
        announced = set(self.python_settled()["workers"].split())
        live = self._named(lambda names: set(names) == announced, strict=False)
        return sorted(role_of(name) for name in live)

    def _named(self, done, strict=True):
        """`{name: worker}` of the live Python workers once `done(names)`; after ten seconds,
        as they are (`strict`: or raise)."""
        deadline = time.monotonic() + 10
        while True:
            live = {self._name(worker): worker for worker in list(self.python_workers)}
            live.pop(None, None)  # ended as its name was read
            if done(live) or time.monotonic() > deadline:
                if strict and not done(live):
                    raise AssertionError(f"the page's Python workers are {sorted(live)}")
                return live
            self.page.wait_for_timeout(50)

    def _name(self, worker):
        if self.names.get(worker) is None:
            self.names[worker] = read_name(worker)
        return self.names[worker]

    def open(self):
        self.page.goto(self.url)
        return self.ready()

    def reload(self):
        self.page.reload()
        return self.ready()

    def ready(self):
        expect(self.tab("diamond")).to_be_visible()
        return self

    def tab(self, label):
        return self.widget.get_by_role("tab", name=label, exact=True)

    @property
    def panel(self):
        """The visible tab panel (hidden panels are not in the accessibility tree)."""
        return self.widget.get_by_role("tabpanel")

    @property
    def editor(self):
        """The learner's editor (read-only views of code are CodeMirror too, not editable)."""
        return self.panel.locator('.cm-content[contenteditable="true"]')

    @property
    def result(self):
        return self.panel.locator("[data-verdict]")

    def open_tab(self, label):
        self.tab(label).click()
        expect(self.tab(label)).to_have_attribute("aria-selected", "true")

    def write(self, code):
        """Replace the editor's text, as pasting would (typing would be auto-indented)."""
        self.editor.click()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.insert_text(code)

    def code(self):
        return self.editor.inner_text().rstrip("\n")

    def run(self):
        """Press "Run test" and wait for the verdict; returns "pass", "fail" or "error"."""
        self.panel.get_by_role("button", name="Run test", exact=True).click()
        return self.verdict()

    def start_run(self):
        """Once Python is ready, press "Run test" and return at once, the run under way."""
        self.wait_until_python_ready()
        self.panel.get_by_role("button", name="Run test", exact=True).click()
        expect(self.panel.get_by_role("button", name="Stop", exact=True)).to_be_visible()

    def stop(self):
        """Press "Stop" during a run and wait for the verdict ("stopped" unless it ended first)."""
        self.panel.get_by_role("button", name="Stop", exact=True).click()
        return self.verdict()

    def status(self):
        return self.widget.locator(".mg-status__text").inner_text()

    def wait_until_python_ready(self):
        status = self.widget.locator(".mg-status")
        expect(status).to_have_attribute("data-state", "ready", timeout=RUN_TIMEOUT_MS)

    def python_restored(self):
        """Whether this page's Python was restored from a memory snapshot
        (widget/src/worker/snapshot.js) rather than started from scratch."""
        self.wait_until_python_ready()
        return self.page.evaluate('performance.getEntriesByName("python-ready")[0].detail.restored')

    def recoveries(self):
        """How each stopped run was recovered from, in order: `[(how, milliseconds, answered)]`,
        `how` being "interrupt" (the interrupted runner said where it was) or "end" (it was ended
        without that), `answered` whether an interrupted runner answered in time (None where it
        was not interrupted)."""
        return [
            tuple(entry)
            for entry in self.page.evaluate(
                """() => performance.getEntriesByName("python-recovery")
                     .map((e) => [e.detail.how, Math.round(e.duration), e.detail.answered])"""
            )
        ]

    def verdict(self):
        self.result.wait_for(timeout=RUN_TIMEOUT_MS)
        return self.result.get_attribute("data-verdict")

    def solve(self, label, code):
        """Write `code` on the tab `label` and run its test."""
        self.open_tab(label)
        self.write(code)
        return self.run()

    def show_every_hint(self):
        """Climbs the tab's ladder of hints to its top: "Show solution" comes after it."""
        button = self.panel.get_by_role("button", name=re.compile(r"^Show hint \d+ of \d+$"))
        while button.count():
            button.click()

    def result_text(self):
        """The result as read, whitespace collapsed."""
        return squash(self.result.inner_text())

    def passed_mark_visible(self, label):
        return self.tab(label).get_by_text("✓").is_visible()


def read_name(worker):
    """A Python worker's name, as the page gave it: `python-<role>-<id>`, with `+wasm` for a
    worker handed a compiled WebAssembly module (widget/src/python/python-worker.js)."""
    try:
        return worker.evaluate("self.name")
    except Error:  # it ended meanwhile
        return None


def role_of(name):
    return re.match(r"python-(judge|runner)-", name).group(1)


def announced_roles(page):
    """The roles of the Python workers `page` announces alive (`data-python-workers`), sorted,
    as it says them now."""
    names = page.evaluate("() => document.documentElement.dataset.pythonWorkers").split()
    return sorted(role_of(name) for name in names)


def squash(text):
    return re.sub(r"\s+", " ", text).strip()


def as_read(markdown):
    """A grader sentence as the page shows it: `code` spans become code, without backticks."""
    return squash(markdown.replace("`", ""))
