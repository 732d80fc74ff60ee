"""The lesson pages in Chromium: formulas and graphs render from the site's own files, and the
quizzes work from the keyboard, announce their verdict and remember it."""

import re

import pytest
from conftest import SITE, assert_clean, quiz_page
from learner import Watch, squash
from playwright.sync_api import expect

LESSONS = sorted(
    page.parent.relative_to(SITE).as_posix().strip(".") + "/"
    for page in SITE.glob("**/index.html")
    if "mg-graph" in page.read_text(encoding="utf-8")
    or "arithmatex" in page.read_text(encoding="utf-8")
)


@pytest.fixture
def open_page(fresh_page, site):
    """`open_page(path) -> page`: a reader who answered no quiz (conftest.py `fresh_page`)."""

    def open_at(path):
        page = fresh_page()
        page.goto(site.url + path.lstrip("/"))
        return page

    return open_at


@pytest.fixture(scope="module")
def reader(browser, site):
    """One watched page that goes from lesson to lesson, as a reader does: `reader(path)`."""
    context = browser.new_context()
    watch, page = Watch(context), context.new_page()

    def read(path):
        page.goto(site.url + path.lstrip("/"))
        return page

    yield read
    context.close()
    assert_clean(watch)


def test_the_course_has_lessons_with_graphs_and_formulas():
    assert len(LESSONS) >= 5, LESSONS


@pytest.mark.parametrize("path", LESSONS)
def test_formulas_use_katex_fonts_from_the_site(reader, path):
    page = reader(path)
    formulas = page.locator(".arithmatex .katex")
    if formulas.count() == 0:
        pytest.skip(f"{path} has no formula")
    formulas.first.scroll_into_view_if_needed()
    page.wait_for_function("document.fonts.status === 'loaded'")
    loaded = page.evaluate(
        "[...document.fonts].filter(f => f.family.startsWith('KaTeX') && f.status === 'loaded')"
        ".map(f => f.family)"
    )
    assert "KaTeX_Main" in loaded or "KaTeX_Math" in loaded, loaded
    assert page.locator(".arithmatex:not(:has(.katex))").count() == 0  # none left as TeX


def test_graphs_show_the_drawing_that_fits_the_screen(reader):
    """Each page read on a wide screen, then on a narrow one (the window made narrower)."""
    for path in LESSONS:
        page = reader(path)
        for width, shown, hidden in [(1200, "wide", "narrow"), (390, "narrow", "wide")]:
            page.set_viewport_size({"width": width, "height": 800})
            for figure in page.locator("figure.mg-graph").all():
                figure.scroll_into_view_if_needed()
                image = figure.get_by_role("img")
                expect(image).to_have_count(1)  # the other drawing is not displayed at all
                expect(image).to_have_attribute("aria-label", re.compile("^Computation graph of "))
                expect(figure.locator(f".mg-graph__canvas--{shown} svg")).to_be_visible()
                expect(figure.locator(f".mg-graph__canvas--{hidden} svg")).to_be_hidden()
                box = image.bounding_box()
                assert box["width"] <= width, f"{path}: a graph is wider than {width} px"


def test_choice_quiz_by_keyboard_explains_each_answer_and_remembers(open_page):
    page = open_page(quiz_page("choice"))
    quiz = page.locator('form.mg-quiz[data-kind="choice"]').first
    result = quiz.get_by_role("status")
    radios = quiz.get_by_role("radio")
    options = quiz.locator(".mg-quiz__option")
    right = next(
        i for i in range(radios.count()) if radios.nth(i).get_attribute("data-correct") is not None
    )
    wrong = (right + 1) % radios.count()

    radios.nth(0).focus()
    for _ in range(wrong):
        page.keyboard.press("ArrowDown")
    expect(radios.nth(wrong)).to_be_checked()
    page.keyboard.press("Tab")
    expect(quiz.get_by_role("button", name="Check answer")).to_be_focused()
    page.keyboard.press("Enter")
    expect(result).to_contain_text("Not quite")
    expect(result).to_have_attribute("aria-live", "polite")
    expect(options.nth(wrong).locator(".mg-quiz__why")).to_be_visible()
    expect(options.nth(right).locator(".mg-quiz__why")).to_be_hidden()
    # the explanation is announced along with the verdict
    why = squash(options.nth(wrong).locator(".mg-quiz__why").inner_text())
    assert why in squash(result.text_content())

    radios.nth(right).check()
    quiz.get_by_role("button", name="Check answer").press("Enter")
    expect(result).to_contain_text("Correct")
    for i in range(radios.count()):
        expect(options.nth(i).locator(".mg-quiz__why")).to_be_visible()
    expect(options.nth(wrong)).to_have_attribute("data-state", "wrong")
    expect(options.nth(right)).to_have_attribute("data-state", "right")

    page.reload()
    quiz = page.locator('form.mg-quiz[data-kind="choice"]').first
    expect(quiz.get_by_role("radio").nth(right)).to_be_checked()
    expect(quiz.get_by_role("status")).to_contain_text("Solved")
    expect(quiz.locator(".mg-quiz__option").nth(wrong)).to_have_attribute("data-state", "wrong")


def test_choice_quiz_asks_for_a_choice_first(open_page):
    page = open_page(quiz_page("choice"))
    quiz = page.locator('form.mg-quiz[data-kind="choice"]').first
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.get_by_role("status")).to_have_text("Choose one of the options first.")


def test_number_quiz_gives_a_hint_after_a_wrong_answer_and_remembers(open_page):
    page = open_page(quiz_page("number"))
    quiz = page.locator('form.mg-quiz[data-kind="number"]').first
    field = quiz.get_by_role("textbox")
    result = quiz.get_by_role("status")
    hint, why = quiz.locator(".mg-quiz__hint"), quiz.locator(".mg-quiz__why")
    answer = float(quiz.get_attribute("data-answer"))
    expect(hint).to_be_hidden()

    field.fill("three")
    field.press("Enter")
    expect(result).to_have_text("Please type a number, such as 2 or 0.5.")
    expect(hint).to_be_hidden()

    field.fill(f"{answer * 2:g}")
    field.press("Enter")
    expect(result).to_contain_text("Not quite")
    expect(hint).to_be_visible()
    expect(why).to_be_hidden()
    assert squash(hint.inner_text()) in squash(result.text_content())

    field.fill(f"{answer:g}×")
    field.press("Enter")
    expect(result).to_contain_text("Correct")
    expect(why).to_be_visible()
    expect(hint).to_be_hidden()

    page.reload()
    quiz = page.locator('form.mg-quiz[data-kind="number"]').first
    expect(quiz.get_by_role("textbox")).to_have_value(f"{answer:g}×")
    expect(quiz.get_by_role("status")).to_have_text("Solved.")
    expect(quiz.locator(".mg-quiz__why")).to_be_visible()


def test_answers_to_an_earlier_version_of_a_quiz_are_not_restored(open_page):
    page = open_page(quiz_page("number"))
    quiz = page.locator('form.mg-quiz[data-kind="number"]').first
    quiz.get_by_role("textbox").fill(quiz.get_attribute("data-answer"))
    quiz.get_by_role("textbox").press("Enter")
    expect(quiz.get_by_role("status")).to_contain_text("Correct")
    edited = page.evaluate(
        """(id) => Object.keys(localStorage)
             .filter((key) => key.endsWith(`:quiz:${id}`))
             .map((key) => {
               const saved = JSON.parse(localStorage.getItem(key));
               localStorage.setItem(key, JSON.stringify({ ...saved, version: "older" }));
               return key;
             })""",
        quiz.get_attribute("data-quiz"),
    )
    assert len(edited) == 1, edited
    page.reload()
    quiz = page.locator('form.mg-quiz[data-kind="number"]').first
    expect(quiz.get_by_role("textbox")).to_have_value("")
    expect(quiz.locator(".mg-quiz__result")).to_be_empty()
