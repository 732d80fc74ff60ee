"""The core of a learner's journey in the browser engines other than Chromium: Firefox ESR and
WebKitGTK (engines/drivers.py says how each is driven). Every step of it is a site test of its
own in Chromium, with isolation where it is walked with it here, so Chromium does not walk it.

Without cross-origin isolation: each tab's reference passes, an `=` fails with its explanation,
a syntax error reports the learner's own line, Stop ends an endless loop and the next run
passes, a reload keeps the code and the ✓, the diamond passes, Check my whole engine finds a
bug, both kinds of quiz take an answer, and then (in Firefox), the host gone, the course works
offline. With it (Python loaded under COOP/COEP, Stop by an interrupt where the engine has
SharedArrayBuffer), the steps isolation changes: the tabs pass (one tab in WebKitGTK, which has
no SharedArrayBuffer, so its page runs as without isolation), Stop, and (in Firefox, whose
runner then has an interrupt buffer) microgpt, which trains in both engines.
The tests of a visit share one browser and run in order, as one visit would."""

import math
import re
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import SITE
from learner import as_read

from devtools import serve
from grader.diagnosis.explain import DIAGNOSES

sys.path.insert(0, str(Path(__file__).resolve().parent / "engines"))
from drivers import FirefoxDriver, WebKitDriver, missing  # noqa: E402

OPS = ("add", "mul", "pow", "tanh", "exp", "relu")
COMBINATIONS = [
    (engine, isolated) for engine in ("firefox", "webkit") for isolated in (False, True)
]


def engine_ids(combinations):
    return [
        f"{engine}-{'isolated' if isolated else 'not-isolated'}"
        for engine, isolated in combinations
    ]


# what isolation changes nothing of (the grader's words, saved work, the diamond, the engine
# check, quizzes) is walked once per engine, in the journey without it
NOT_ISOLATED = [combination for combination in COMBINATIONS if not combination[1]]
WITHOUT_ISOLATION = pytest.mark.parametrize(
    "visit", NOT_ISOLATED, indirect=True, ids=engine_ids(NOT_ISOLATED)
)


@contextmanager
def engine_at(param, path):
    """A fresh browser of one engine at `path`: `(driver, site_url, isolated)`."""
    engine, isolated = param
    absent = missing(engine)
    if absent:
        pytest.fail(f"{engine} cannot run here: {absent} is missing (`make setup` installs it)")
    with serve.start(SITE, isolate=isolated) as site:
        driver = {"firefox": FirefoxDriver, "webkit": WebKitDriver}[engine]()
        driver.host = site  # for the offline step, which stops it
        try:
            driver.goto(site.url + path.lstrip("/"))
            yield driver, site.url, isolated
        finally:
            driver.close()


@pytest.fixture(scope="module", params=COMBINATIONS, ids=engine_ids(COMBINATIONS))
def visit(request, widget_page):
    """The journey's browser, at the exercise page."""
    with engine_at(request.param, widget_page) as opened:
        yield opened


# microgpt trains in both engines without isolation, each in a browser of its own at the
# microgpt page (after the journey, the service worker would isolate the page, and in WebKitGTK
# the microgpt page's Python sometimes stopped loading: nothing for 60 s); and in Firefox under
# isolation, where it changes the runner (an interrupt buffer), as a step of that journey
TRAINED_IN_THE_VISIT = [("firefox", True)]
TRAINED_ALONE = [("firefox", False), ("webkit", False)]


@pytest.fixture(params=TRAINED_ALONE, ids=engine_ids(TRAINED_ALONE))
def trainer(request):
    """A browser of its own at the microgpt page."""
    with engine_at(request.param, "microgpt/") as opened:
        yield opened


def test_every_tab_passes_with_its_reference(visit, exercises):
    """WebKitGTK under isolation lacks SharedArrayBuffer all the same, so its page runs as
    without it: one tab there proves Python loads and grades under the isolating headers."""
    driver, _, isolated = visit
    assert driver.call("isolated") is isolated
    tabs = driver.call("ready")
    same_as_without = isolated and isinstance(driver, WebKitDriver)
    if same_as_without:  # the premise: should WebKitGTK gain it, this fails
        assert driver.call("sharedMemory") is False
    for op in OPS[:1] if same_as_without else OPS:
        exercise = exercises[op]
        assert exercise.label in tabs
        outcome = driver.call("solve", exercise.label, exercise.solutions[op])
        assert outcome["verdict"] == "pass", outcome
    assert driver.call("errors") == []


@WITHOUT_ISOLATION
def test_equals_for_plus_equals_fails_with_its_explanation(visit, exercises):
    driver, _, _ = visit
    wrong = next(a for a in exercises["add"].known_wrong if a.diagnoses == ("assign",))
    outcome = driver.call("solve", "__add__", wrong.bodies["add"])
    assert outcome["verdict"] == "fail"
    assert as_read(DIAGNOSES["assign"]) in outcome["text"]


@WITHOUT_ISOLATION
def test_a_syntax_error_names_the_learners_line(visit):
    driver, _, _ = visit
    outcome = driver.call("solve", "__add__", "self.grad += out.grad\nother.grad += (")
    assert outcome["verdict"] == "error"
    assert "SyntaxError" in outcome["text"] and "line 2" in outcome["text"], outcome


def test_stop_ends_an_endless_loop_and_the_next_run_passes(visit, exercises):
    driver, _, _ = visit
    assert driver.call("start", "__add__", "while True:\n    pass")
    assert driver.call("stop")["verdict"] == "stopped"
    outcome = driver.call("solve", "__add__", exercises["add"].solutions["add"])
    assert outcome["verdict"] == "pass", outcome


@WITHOUT_ISOLATION
def test_a_reload_keeps_the_code_and_the_marks(visit, exercises):
    driver, _, _ = visit
    driver.reload()
    driver.call("ready")
    for op in ("add", "tanh"):
        state = driver.call("state", exercises[op].label)
        assert state == {"code": exercises[op].solutions[op], "passed": True}


@WITHOUT_ISOLATION
def test_the_diamond_passes(visit):
    driver, _, _ = visit
    outcome = driver.call("run", "diamond")
    assert outcome["verdict"] == "pass", outcome
    assert driver.call("errors") == []


@WITHOUT_ISOLATION
def test_check_my_whole_engine_finds_an_equals_seen_only_on_a_shared_node(visit, exercises):
    """`=` for `+=` in `__mul__`: found among 500 random graphs, shrunk to three ops at most and
    judged; the reference then gives no failing graph (widget/src/exercise/engine-check.js)."""
    driver, _, _ = visit
    wrong = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
    found = driver.call("checkEngine", wrong)
    assert found["state"] == "fail" and found["verdict"] == "fail", found
    lines = found["program"].splitlines()
    ops = [line for line in lines if re.match(r"\w+ = ", line) and "Value(" not in line]
    assert 1 <= len(ops) <= 3, found
    assert re.match(r"Graph \d+ of 500 fails", found["summary"]), found
    passed = driver.call("checkEngine", exercises["mul"].solutions["mul"])
    assert passed["state"] == "pass" and passed["summary"].startswith("No failing graph in 500")
    assert driver.call("errors") == []


@WITHOUT_ISOLATION
@pytest.mark.parametrize("kind", ["choice", "number"])
def test_the_quizzes_take_an_answer(visit, kind):
    driver, site_url, _ = visit
    for page in sorted(SITE.glob("**/index.html")):
        html = page.read_text(encoding="utf-8")
        if f'data-kind="{kind}"' in html:
            break
    answer = None
    if kind == "number":
        answer = float(html.split('data-answer="', 1)[1].split('"', 1)[0])
    driver.goto(site_url + page.parent.relative_to(SITE).as_posix().strip(".") + "/")
    outcome = driver.call("quiz", kind, answer)
    assert outcome["state"] == "right" and outcome["text"].startswith("Correct"), outcome


@pytest.mark.parametrize(
    "visit", TRAINED_IN_THE_VISIT, indirect=True, ids=engine_ids(TRAINED_IN_THE_VISIT)
)
def test_microgpt_learns_and_makes_up_names_in_the_visit(visit):
    """After the journey's other steps, on its microgpt page."""
    driver, site_url, isolated = visit
    driver.goto(site_url + "microgpt/")
    learns_and_makes_up_names(driver, isolated)


# Firefox's journey only: in WebKitGTK the service worker once never became active at the end
# of the journey (120 s), though it works offline walked alone (a flake not yet understood)
FIREFOX_WITHOUT_ISOLATION = [("firefox", False)]


@pytest.mark.parametrize(
    "visit", FIREFOX_WITHOUT_ISOLATION, indirect=True, ids=engine_ids(FIREFOX_WITHOUT_ISOLATION)
)
def test_after_the_visit_the_course_works_offline(visit, widget_page, exercises):
    """The visit's last step (it stops the host): the service worker copied the whole site
    during the visit, so with the host gone the exercise page loads and a tab passes."""
    driver, site_url, _ = visit
    assert len(driver.call("keptOffline")["caches"]) == 1
    driver.host.stop()
    driver.goto(site_url + widget_page.lstrip("/"))
    outcome = driver.call("solve", "__mul__", exercises["mul"].solutions["mul"])
    assert outcome["verdict"] == "pass", outcome
    assert driver.call("keptOffline")["controlled"]


def test_microgpt_learns_and_makes_up_names(trainer):
    driver, _, isolated = trainer
    learns_and_makes_up_names(driver, isolated)


def learns_and_makes_up_names(driver, isolated):
    assert driver.call("isolated") is isolated
    outcome = driver.call("trainMicrogpt", 30)  # the same seed everywhere: a loss of ~2.84 by then
    assert outcome["step"] >= 30 and outcome["loss"] < math.log(27) - 0.2, outcome
    names = outcome["names"]
    assert len(names) == 8 and any(names), outcome
    assert all(re.fullmatch("[a-z]*", name) for name in names), outcome
    assert driver.call("errors") == []
