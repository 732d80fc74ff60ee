"""The browser engines other than Chromium, each behind the same small interface, for the
journey of test_browser_engines.py: `goto(url)`, `reload()`, `call(name, *args)` (awaits
`courseJourney[name](*args)` of engines/journey.js in the page) and `close()`.

- Firefox: Debian's Firefox ESR, through WebDriver BiDi (puppeteer-core, engines/bridge.mjs).
- WebKit: Debian's WebKitGTK MiniBrowser, through its WebDriver (Selenium), on a virtual screen.

NOTES: Playwright for Python cannot drive these Firefox and WebKit builds, and WebKitGTK's own
headless mode hangs here, hence Xvfb.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
JOURNEY = (HERE / "journey.js").read_text(encoding="utf-8")
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
TIMEOUT_S = 120


class JourneyError(AssertionError):
    """A journey step that failed in the page: the message is the page's."""


def missing(engine):
    """What is missing to run `engine` here, or None (the Makefile installs it all)."""
    needs = {
        "firefox": [FIREFOX, shutil.which("node")],
        "webkit": [WEBKIT_DRIVER, MINIBROWSER, shutil.which("Xvfb")],
    }.get(engine, [])
    absent = [path for path in needs if not path or not Path(path).exists()]
    return ", ".join(str(path) for path in absent) or None


class FirefoxDriver:
    def __init__(self):
        bridge = [shutil.which("node"), str(HERE / "bridge.mjs"), FIREFOX]
        self.process = subprocess.Popen(
            bridge, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def _send(self, **command):
        self.process.stdin.write(json.dumps(command) + "\n")
        answer = self.process.stdout.readline()
        if not answer:
            raise JourneyError(f"Firefox's bridge ended (exit {self.process.wait()})")
        answer = json.loads(answer)
        if "error" in answer:
            raise JourneyError(answer["error"])
        return answer["value"]

    def goto(self, url):
        self._send(op="goto", url=url, inject=JOURNEY)

    def reload(self):
        self._send(op="reload", inject=JOURNEY)

    def call(self, name, *args):
        return self._send(op="call", name=name, args=list(args))

    def close(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class WebKitDriver:
    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        # a virtual screen: Xvfb picks a free display and writes its number on the pipe
        read, write = os.pipe()
        self.screen = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            display = f":{pipe.readline().strip()}"
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        options.page_load_strategy = "none"  # loads are awaited by polling (NOTES)
        service = Service(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(TIMEOUT_S)

    def _navigate(self, go):
        """Runs `go()`, then waits for the new page to load (not the old one still showing)."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.support.wait import WebDriverWait

        self.driver.execute_script("window.courseJourneyLeaving = true")
        go()

        def arrived(driver):
            try:
                return driver.execute_script(
                    "return !window.courseJourneyLeaving && document.readyState === 'complete'"
                )
            except WebDriverException:  # between two documents
                return False

        WebDriverWait(self.driver, TIMEOUT_S, poll_frequency=0.1).until(arrived)
        self.driver.execute_script(JOURNEY)

    def goto(self, url):
        self._navigate(lambda: self.driver.get(url))

    def reload(self):
        self._navigate(lambda: self.driver.execute_script("location.reload()"))

    def call(self, name, *args):
        answer = self.driver.execute_async_script(
            """const [name, args, done] = arguments;
            Promise.resolve(window.courseJourney[name](...args)).then(
              (value) => done({ value }),
              (error) => done({ error: String(error && error.message || error) }),
            );""",
            name,
            list(args),
        )
        if "error" in answer:
            raise JourneyError(answer["error"])
        return answer["value"]

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.screen.terminate()
            self.screen.wait(timeout=10)
