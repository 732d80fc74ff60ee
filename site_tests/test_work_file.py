""" "Download my work" in one browser, "Load work" in another (widget/src/work/): the code, the
verdicts and the passed marks come back; a file that is not this course's work is refused with
what to do; nothing saved is replaced until the learner confirms."""

import json

from playwright.sync_api import expect

from grader.handin import read_handin

WRONG_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"


def download(learner, tmp_path, name="Ada Lovelace, s1815"):
    """The work file "Download my work" saves, the learner giving `name` when first asked."""
    panel = learner.page.locator(".mg-work").first
    panel.get_by_label("Your name or ID").fill(name)
    with learner.page.expect_download() as started:
        panel.get_by_role("button", name="Download my work").click()
    path = tmp_path / started.value.suggested_filename
    started.value.save_as(path)
    expect(panel.get_by_role("status")).to_contain_text("Saved the code of")
    return path


def test_the_name_is_asked_once_and_remembered(new_visitor, tmp_path):
    learner, _ = new_visitor()
    panel = learner.page.locator(".mg-work").first
    panel.get_by_role("button", name="Download my work").click()  # no name yet: asked first
    expect(panel.get_by_role("status")).to_contain_text("Type your name or ID")
    expect(panel.get_by_label("Your name or ID")).to_be_focused()
    panel.get_by_label("Your name or ID").fill("Grace Hopper")
    with learner.page.expect_download() as started:
        panel.get_by_role("button", name="Download my work").click()
    assert started.value.suggested_filename.startswith("micrograd-work-Grace-Hopper-")
    learner.page.reload()
    learner.ready()
    panel = learner.page.locator(".mg-work").first
    expect(panel.get_by_label("Your name or ID")).to_be_hidden()  # asked once
    with learner.page.expect_download() as again:
        panel.get_by_role("button", name="Download my work").click()
    assert again.value.suggested_filename.startswith("micrograd-work-Grace-Hopper-")


def choose(learner, path):
    learner.page.locator(".mg-work input[type=file]").first.set_input_files(path)
    return learner.page.locator(".mg-work [role=status]").first


def test_work_downloaded_in_one_browser_loads_in_another(new_visitor, visit, exercises, tmp_path):
    first, _ = new_visitor()
    assert first.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    assert first.solve("__mul__", WRONG_MUL) == "fail"
    path = download(first, tmp_path)
    assert path.name.startswith("micrograd-work-Ada-Lovelace-s1815-")
    handed_in = read_handin(path.read_bytes())  # what regrade reads is what was saved
    assert handed_in.learner == "Ada Lovelace, s1815"
    assert handed_in.code["mul"] == WRONG_MUL and handed_in.claimed == {
        "add": "pass",
        "mul": "fail",
    }

    other, _ = visit()  # a fresh browser context: nothing saved
    said = choose(other, path)
    expect(said).to_contain_text("This file holds the code of 2 tabs")
    with other.page.expect_navigation():  # the page reloads to show the loaded work
        said.get_by_role("button", name="Replace my work").click()
    other.ready()
    assert other.passed_mark_visible("__add__")
    other.open_tab("__mul__")
    assert other.code() == WRONG_MUL


def test_nothing_is_replaced_until_the_learner_confirms(new_visitor, visit, exercises, tmp_path):
    first, _ = new_visitor()
    assert first.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
    path = download(first, tmp_path)
    other, _ = visit()  # a fresh browser context: nothing saved
    other.open_tab("__mul__")
    other.write("self.grad += 1")
    said = choose(other, path)
    said.get_by_role("button", name="Cancel").click()
    expect(said).to_have_text("Nothing was loaded.")
    other.reload()
    other.open_tab("__mul__")
    assert other.code() == "self.grad += 1"


def test_a_file_that_is_not_this_course_s_work_is_refused(new_visitor, tmp_path):
    learner, _ = new_visitor()
    junk = tmp_path / "notes.json"
    junk.write_text("my notes")
    expect(choose(learner, junk)).to_contain_text("not a work file (it is not JSON)")
    foreign = tmp_path / "other.json"
    found = {"format": "micrograd-work", "version": 1, "course": "0", "site": "https://x.org/"}
    foreign.write_text(json.dumps(found | {"code": {}, "tabs": {}}))
    expect(choose(learner, foreign)).to_contain_text("from another course (https://x.org/)")


def test_the_start_page_offers_the_same_panel(site, browser):
    page = browser.new_page()
    try:
        page.goto(site.url)
        panel = page.locator("[data-work-panel] .mg-work")
        expect(panel.get_by_role("button", name="Download my work")).to_be_visible()
        expect(panel.get_by_role("button", name="Load work…")).to_be_visible()
    finally:
        page.close()
