""" "Check my whole engine" on the diamond tab (widget/src/exercise/engine-check.js): the learner's
whole class on 500 random graphs in a runner of its own, the judge deciding and shrinking
(grader/fuzz_page.py). Each test waits on what the page announces: the section's
`data-engine-check` and its progress line."""

import re

import pytest
from conftest import SITE, assert_clean, learner_at
from playwright.sync_api import expect
from test_accessibility import violations

from course.widget_data import engine_check_data, engine_check_html
from grader.exercises import load_catalog

ASSIGN_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"
SLOW_MUL = "for _ in range(200000):\n    pass\n" + ASSIGN_MUL.replace(" = ", " += ")
CHECK_MS = 60_000
CLOSURES = ("add", "mul", "pow", "tanh", "exp", "relu", "log", "sigmoid")


@pytest.fixture
def learner(new_visitor):
    """A learner with no work at the exercise page (conftest.py `new_visitor`)."""
    return new_visitor()[0]


def engine(learner):
    learner.open_tab("diamond")
    return learner.panel.locator("[data-engine-check]")


def check(learner):
    section = engine(learner)
    section.get_by_role("button", name="Check my whole engine").click()
    expect(section).not_to_have_attribute(
        "data-engine-check", re.compile("idle|running"), timeout=CHECK_MS
    )
    return section


def saved(learner):
    """Everything the page keeps in localStorage but the code and the open tab: progress, ✓."""
    return learner.page.evaluate(
        "Object.fromEntries(Object.entries(localStorage)"
        ".filter(([k]) => !k.includes(':code:') && !k.includes(':tab:')))"
    )


def test_a_wrong_closure_seen_only_on_a_shared_node_is_found_shrunk_and_shown(learner, exercises):
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    learner.open_tab("__mul__")
    learner.write(ASSIGN_MUL)
    before = saved(learner)
    section = check(learner)
    assert section.get_attribute("data-engine-check") == "fail"
    program = section.locator(".mg-engine__program").inner_text()
    assignments = [line for line in program.splitlines() if re.match(r"^n\d+ = ", line)]
    assert 1 <= len(assignments) <= 3, program
    expect(section.locator(".mg-engine__summary")).to_contain_text(
        re.compile(r"Graph \d+ of 500 fails")
    )
    expect(section.locator(".mg-engine__did")).to_contain_text(
        re.compile(r"\.grad: your engine gives")
    )
    judged = section.locator("[data-verdict]")
    expect(judged).to_have_attribute("data-verdict", "fail")
    judged.get_by_role("button", name="Show the graph").click()
    figure = judged.locator("figure.mg-graph--check")
    expect(figure.locator("[data-grad-state=wrong] >> visible=true")).not_to_have_count(0)
    figure.get_by_role("button", name="Step through backward()").click()
    expect(figure.locator(".mg-graph__step")).to_contain_text("Before the first step")
    figure.get_by_role("button", name="Next step").click()
    expect(figure.locator(".mg-graph__step")).to_contain_text("Step 1 of")
    assert learner.passed_mark_visible("__add__")
    assert not learner.passed_mark_visible("__mul__")
    assert saved(learner) == before, "the check records nothing"
    assert violations(learner.page, "[data-engine-check]") == []


def test_the_references_give_no_failing_graph_in_500(learner, exercises):
    for op in CLOSURES:
        learner.open_tab(exercises[op].label)
        learner.write(exercises[op].solutions[op])
    section = check(learner)
    assert section.get_attribute("data-engine-check") == "pass"
    expect(section.locator(".mg-engine__summary")).to_contain_text("No failing graph in 500")


def test_stop_ends_the_check_at_once_and_its_runner_with_it(learner):
    learner.open_tab("__mul__")
    learner.write(SLOW_MUL)
    learner.wait_until_python_ready()
    section = engine(learner)
    section.get_by_role("button", name="Check my whole engine").click()
    expect(section.locator("[data-engine-progress]")).to_contain_text("Graph ", timeout=CHECK_MS)
    workers = learner.page.evaluate("document.documentElement.dataset.pythonWorkers").split()
    stop = section.get_by_role("button", name="Stop")
    expect(stop).to_be_focused()
    learner.page.keyboard.press("Enter")
    expect(section).to_have_attribute("data-engine-check", "stopped")
    expect(section.locator("[data-engine-progress]")).to_have_text("Stopped.")
    expect(section.get_by_role("button", name="Check my whole engine")).to_be_focused()
    now = learner.page.evaluate("document.documentElement.dataset.pythonWorkers").split()
    assert len(set(workers) - set(now)) == 1, (workers, now)  # the session's runner is gone
    # the judge forgot the stopped session (widget/src/worker/main.js): a new one starts afresh
    section.get_by_role("button", name="Check my whole engine").click()
    expect(section.locator("[data-engine-progress]")).to_contain_text("Graph ", timeout=CHECK_MS)
    section.get_by_role("button", name="Stop").click()
    expect(section).to_have_attribute("data-engine-check", "stopped")


@pytest.fixture(scope="module")
def lesson_site(tmp_path_factory, widget_page):
    """The built site and one page more, beside the exercise page: the exercise page's own HTML
    with its widget replaced by a ```engine-check block's (course/widget_data.py), as a lesson
    page of its own would have it (the course's pages are another helper's)."""
    from devtools import serve

    root = tmp_path_factory.mktemp("site")
    for entry in SITE.iterdir():
        (root / entry.name).symlink_to(entry)
    html = (SITE / widget_page.strip("/") / "index.html").read_text(encoding="utf-8")
    start = html.index('<div class="exercise-widget"')
    end = html.index("</div>", html.index("</noscript>", start)) + len("</div>")
    data = engine_check_data("closures", load_catalog(), lambda text: text) | {"time_limit": 5}
    (root / "engine-check").mkdir()
    page = html[:start] + engine_check_html(data) + html[end:]
    (root / "engine-check" / "index.html").write_text(page, encoding="utf-8")
    with serve.start(root) as running:
        yield running.url


def test_an_engine_check_block_checks_the_code_saved_on_the_exercise_page(
    browser, lesson_site, widget_page
):
    learner, watch, close = learner_at(browser, lesson_site + widget_page.lstrip("/"))
    learner.open()
    learner.open_tab("__mul__")
    learner.write(ASSIGN_MUL)
    learner.page.goto(lesson_site + "engine-check/")
    section = learner.page.locator("[data-engine-check-widget] [data-engine-check]")
    section.get_by_role("button", name="Check my whole engine").click()
    expect(section).to_have_attribute("data-engine-check", "fail", timeout=CHECK_MS)
    expect(section.locator(".mg-engine__summary")).to_contain_text("of 500 fails")
    expect(section.locator("[data-verdict]")).to_have_attribute("data-verdict", "fail")
    close()
    assert_clean(watch)
