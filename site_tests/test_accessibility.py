"""axe-core (npm, run from node_modules) finds no serious or critical violation: on every page,
light and dark, desktop and phone width, and on the exercise page in each state a learner
brings it to (passed, failed, error, solution shown, full class shown)."""

from pathlib import Path

import pytest
from conftest import SITE
from learner import Learner
from playwright.sync_api import expect

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
PAGES = sorted(
    page.parent.relative_to(SITE).as_posix().strip(".") + "/" for page in SITE.glob("**/index.html")
)
# a phone is a narrow screen that is touched: axe judges scrolling regions differently there
SCREENS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
SERIOUS = ("serious", "critical")
# the colour transitions under way have ended (not a spinner's endless animation)
FADED = """Promise.all(document.getAnimations()
  .filter((animation) => animation instanceof CSSTransition)
  .map((transition) => transition.finished.catch(() => {})))"""
# before every page of a context: mkdocs-material keeps the palette it picked in localStorage;
# forgotten, it picks by the media query again
FORGET_PALETTE = """
for (const key of Object.keys(localStorage))
  if (key.endsWith("__palette")) localStorage.removeItem(key);
"""


def violations(page, within="document"):
    """axe's serious and critical violations in the page (or the element `within` selects),
    each as `rule: what, where` for the failure message."""
    if not page.evaluate("typeof axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async (within) => {
            const scope = within === "document" ? document : document.querySelector(within);
            const { violations } = await axe.run(scope, { resultTypes: ["violations"] });
            return violations.map(({ id, impact, nodes }) => ({
                id,
                impact,
                nodes: nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
            }));
        }""",
        within,
    )
    return [f"{v['id']} ({v['impact']}) at {v['nodes']}" for v in found if v["impact"] in SERIOUS]


@pytest.fixture(scope="module")
def readers(kept_profiles):
    """A reader on each screen, going from page to page in a browser of their own (a phone is
    touched): from the second page on, Python is restored from the first one's memory and the
    site's files come from the browser's cache, as a reader's would. `{screen: page}`."""
    pages = {screen: new_page(kept_profiles, screen) for screen in SCREENS}
    yield pages
    for page in pages.values():
        page.context.close()


@pytest.fixture(scope="module")
def learner(kept_profiles, site, widget_page):
    """A learner at the exercise page on the desktop, in a browser of their own, loaded light:
    the module's tests of the widget's states share it, each bringing it to the states it needs."""
    page = in_scheme(
        new_page(kept_profiles, "desktop"), site.url + widget_page.lstrip("/"), "light"
    )
    yield Learner(page, page.url).ready()
    page.context.close()


def new_page(kept_profiles, screen):
    context = kept_profiles.new_context(service_workers="block", **SCREENS[screen])
    context.add_init_script(FORGET_PALETTE)
    return context.pages[0]  # a browser's first window


def in_scheme(page, url, scheme):
    """`page` at `url` in the colour `scheme` the reader's system asks for (mkdocs-material
    picks its palette by that media query as a page loads; FORGET_PALETTE makes it pick anew)."""
    page.emulate_media(color_scheme=scheme)
    page.goto(url)
    page.wait_for_load_state("load")
    return expect_scheme(page, scheme)


def toggle_scheme(page):
    """The reader switches the palette with the header's toggle, on the page as it is: to the
    scheme it was not in, which is returned."""
    to = "light" if scheme_of(page) == "dark" else "dark"
    page.locator("form[data-md-component=palette] label:visible").first.click()
    expect_scheme(page, to)
    # colours fade to the new scheme's: audited mid-way, contrast would be read wrong
    page.evaluate(FADED)
    return to


def scheme_of(page):
    return "dark" if page.evaluate("document.body.dataset.mdColorScheme") == "slate" else "light"


def expect_scheme(page, scheme):
    expect(page.locator("body")).to_have_attribute(
        "data-md-color-scheme", "slate" if scheme == "dark" else "default"
    )
    return page


def test_every_page_is_audited():
    assert len(PAGES) >= 10, PAGES


@pytest.mark.parametrize("path", PAGES)
def test_no_serious_violation_on_any_page(readers, site, path):
    """On the desktop the page loads light and the reader's toggle switches it to dark, so both
    schemes and both ways of coming to one are audited; the phone's layout loads dark (its
    colours are the desktop's: a toggle there would audit them again)."""
    url, desktop, phone = site.url + path.lstrip("/"), readers["desktop"], readers["phone"]
    phone.emulate_media(color_scheme="dark")
    phone.goto(url, wait_until="commit")  # the phone loads while the desktop is audited
    found = {"light, desktop": violations(in_scheme(desktop, url, "light"))}
    found[f"{toggle_scheme(desktop)}, desktop"] = violations(desktop)
    phone.wait_for_load_state("load")
    found["dark, phone"] = violations(expect_scheme(phone, "dark"))
    assert {where: seen for where, seen in found.items() if seen} == {}


def test_no_serious_violation_in_any_state_of_the_exercise(learner, exercises):
    """Each state a learner brings the widget to, audited in both schemes: in the one the page
    is in, then in the other (the toggle switches the palette on the page as it is)."""
    page = learner.page
    widget = "[data-exercise-widget]"
    states = {}

    def audit(state):  # in the scheme the page is in, then in the other
        states[f"{state}, {scheme_of(page)}"] = violations(page, widget)
        states[f"{state}, {toggle_scheme(page)}"] = violations(page, widget)

    learner.solve("__mul__", exercises["mul"].solutions["mul"])
    audit("passed")
    wrong = next(a for a in exercises["mul"].known_wrong if a.diagnoses == ("assign",))
    learner.solve("__mul__", wrong.bodies["mul"])
    learner.panel.get_by_role("button", name="Show the graph").first.click()
    audit("failed, its graph shown")
    learner.show_every_hint()
    learner.panel.get_by_role("button", name="Show solution").click()
    audit("solution shown")
    learner.solve("__add__", "self.grad += (")
    audit("error")
    learner.panel.get_by_role("button", name="Show full Value class").click()
    audit("full class shown")
    assert len(states) == 10
    assert {state: found for state, found in states.items() if found} == {}


def test_the_verdicts_marks_keep_the_texts_colour_in_forced_colours(learner, exercises):
    """The ✓ and ✗ beside a verdict and each checked value are drawn (a mask over the text's
    colour): where the system forces its colours (Windows' contrast themes), they must not take
    the forced background's, which would hide them."""
    page = in_scheme(learner.page, learner.url, "light")  # loaded again: no verdict shown yet
    learner.ready()
    page.emulate_media(forced_colors="active")  # as a context made with forced_colors does
    try:
        marks = {}
        for state, code in [("pass", exercises["mul"].solutions["mul"]), ("fail", "pass")]:
            learner.solve("__mul__", code)
            marks[state] = page.evaluate(
                """(panel) => [".mg-verdict__icon", ".mg-check__icon"].map((selector) => {
                    const mark = getComputedStyle(panel.querySelector(selector), "::before");
                    const text = getComputedStyle(panel.querySelector(".mg-verdict__title"));
                    const page = getComputedStyle(document.body);
                    return {
                        mark: mark.backgroundColor,
                        masked: mark.maskImage.startsWith("url("),
                        text: text.color,
                        page: page.backgroundColor,
                    };
                })""",
                learner.panel.element_handle(),
            )
        for state, found in marks.items():
            for mark in found:
                assert mark["masked"], (state, mark)
                assert mark["mark"] == mark["text"] != mark["page"], (state, mark)
    finally:
        page.emulate_media(forced_colors="none")
