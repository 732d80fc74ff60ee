"""With SITE_URL set, as the README tells instructors to publish, mkdocs-material swaps pages
without reloading them (instant navigation): the widget and the quizzes must come up on every
page change, once, and the widget keep working with the page's one Python."""

from learner import Learner
from playwright.sync_api import expect


def test_widget_mounts_after_instant_page_changes(fresh_page, instant_site, widget_page, exercises):
    page = fresh_page(site_url=instant_site.url)
    page.goto(instant_site.url)
    page.evaluate("window.sameDocument = true")
    page.locator(f'a[href$="{widget_page.strip("/")}/"]').first.click()
    learner = Learner(page, None).ready()
    assert page.evaluate("window.sameDocument"), "the page was reloaded, not swapped"
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    judge = learner.python_settled()["judge"]

    page.go_back()
    page.go_forward()
    learner.ready()
    assert page.evaluate("window.sameDocument")
    assert page.locator("[data-exercise-widget] [role=tablist]").count() == 1
    assert learner.passed_mark_visible("__add__")
    assert learner.run() == "pass"
    # the page's one judge, kept across page changes
    assert learner.python_roles() == ["judge", "runner"]
    assert learner.python_settled()["judge"] == judge


def test_quizzes_hydrate_after_instant_page_changes(fresh_page, instant_site):
    from conftest import quiz_page

    page = fresh_page(site_url=instant_site.url)
    page.goto(instant_site.url)
    page.evaluate("window.sameDocument = true")
    page.locator(f'a[href$="{quiz_page("number")}"]').first.click()
    quiz = page.locator('form.mg-quiz[data-kind="number"]').first
    quiz.get_by_role("textbox").fill(quiz.get_attribute("data-answer"))
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.get_by_role("status")).to_contain_text("Correct")
    assert page.evaluate("window.sameDocument"), "the page was reloaded, not swapped"


# every text a widget's status line shows from now on, in order
HEAR_STATUSES = """() => {
  window.statuses = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll(".mg-status__text"))
      if (window.statuses.at(-1) !== el.textContent) window.statuses.push(el.textContent);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def test_a_trainers_link_to_a_tab_opens_that_tab_after_an_instant_page_change(
    fresh_page, instant_site, exercises
):
    """The training page names each tab not passed with a link (`#tab-<exercise>`): followed
    without a reload, it opens that tab on the exercise page, whose Python, started by the
    training page without a judge, now starts one and grades."""
    page = fresh_page(site_url=instant_site.url)
    learner = Learner(page, None)  # hears of every worker the page starts from here on
    page.goto(instant_site.url + "training/")
    page.evaluate("window.sameDocument = true")
    assert learner.python_roles() == ["runner"], "training is not graded: no judge"
    page.evaluate(HEAR_STATUSES)
    source = page.locator("[data-training-widget] .mg-train__source")
    source.get_by_role("link", name=exercises["mul"].label, exact=True).click()
    tab = page.get_by_role("tab", name=exercises["mul"].label, exact=True)
    expect(tab).to_have_attribute("aria-selected", "true")
    assert page.evaluate("window.sameDocument"), "the page was reloaded, not swapped"
    assert page.evaluate("location.hash") == "#tab-mul"
    learner.ready()
    assert learner.solve(exercises["mul"].label, exercises["mul"].solutions["mul"]) == "pass"
    assert learner.python_roles() == ["judge", "runner"]
    # while its judge loaded, the widget said so rather than "Python ready"
    assert "Loading the grader…" in page.evaluate("() => window.statuses")
