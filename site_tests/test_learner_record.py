"""The learner's record (widget/src/record/): two tabs passed on two pages show on the progress
page with their day, the rest not started; the certificate made there verifies on the verify
page with every claim earned (a tab edited after its pass included: the file holds the code
that passed); the same file with a claim its code does not earn and a tab's code
swapped shows what the code earns, on a repeat visit within ~10 s; `python -m grader verify`
gives the same verdicts. axe finds nothing serious on either page, its results shown."""

import json
import re
import subprocess
import sys

from conftest import ROOT
from learner import Learner
from playwright.sync_api import expect
from test_accessibility import violations

WRONG_MUL = "self.grad = other.data * out.grad\nother.grad = self.data * out.grad"


DAY = "new Date().toLocaleDateString(undefined, {year: 'numeric', month: 'short', day: 'numeric'})"


def attributes(rows, key, value):
    """`{row's key: row's value}` of every element `rows` finds."""
    return {
        rows.nth(i).get_attribute(key): rows.nth(i).get_attribute(value)
        for i in range(rows.count())
    }


def page_verdicts(page, path):
    """Each verified exercise's verdict, once the page has checked the file at `path`, and
    those whose claim the page says the code does not earn."""
    page.locator("[data-verify-page] input[type=file]").set_input_files(path)
    done = expect(page.locator("[data-verify-page]"))
    done.to_have_attribute("data-verify-state", "done", timeout=60_000)
    found = attributes(
        page.locator("[data-verify-exercise]"), "data-verify-exercise", "data-verdict"
    )
    over = page.locator("[data-verify-exercise][data-claims-more]")
    return found, sorted(attributes(over, "data-verify-exercise", "data-verdict"))


def command_verdicts(path):
    """`python -m grader verify`'s verdicts and exit status."""
    done = subprocess.run(
        [sys.executable, "-m", "grader", "verify", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    rows = re.findall(r"^(\S+)\s+(pass|fail|error)\s{2}", done.stdout, re.M)
    return dict(rows), done.returncode


def pass_two_tabs(learner, site, exercises):
    learner.open()
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    assert learner.solve("__mul__", WRONG_MUL) == "fail"
    learner.page.goto(site.url + "local-gradients/")
    assert learner.solve("__add__", exercises["local-add"].solutions["add"]) == "pass"
    learner.write("return (0, 0)  # an edit after the pass, never run")


def progress_shows_them(page, site, exercises):
    page.goto(site.url + "progress/")
    states = page.locator("[data-progress-exercise]")
    expect(states).to_have_count(len(exercises))
    seen = attributes(states, "data-progress-exercise", "data-progress-state")
    passed = {"add": "passed", "local-add": "passed", "mul": "tried"}
    assert seen == {name: "not-started" for name in exercises} | passed
    day = page.evaluate(DAY)
    for name in ("add", "local-add"):
        tab = page.locator(f'[data-progress-exercise="{name}"]')
        expect(tab).to_contain_text(f"passed on {day}")
    expect(page.locator(".mg-indicator")).to_contain_text(f"2/{len(exercises)} exercises passed")


def make_certificate(page, tmp_path):
    page.get_by_label("Your name, as it should appear").fill("Ada Lovelace")
    with page.expect_download() as started:
        page.get_by_role("button", name="Make my certificate").click()
    path = tmp_path / started.value.suggested_filename
    started.value.save_as(path)
    expect(page.locator(".mg-certificate")).to_contain_text("Ada Lovelace")
    return path


def tampered(honest, tmp_path):
    """The certificate claiming a pass for mul, whose code fails, and add's and mul's code
    swapped."""
    work = json.loads(honest.read_text())
    work["tabs"]["mul"]["verdict"] = "pass"
    work["code"]["add"], work["code"]["mul"] = work["code"]["mul"], work["code"]["add"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(work))
    return path


def test_progress_certificate_and_verify(fresh_page, site, exercises, tmp_path):
    learner = Learner(fresh_page(), site.url + "exercises/")
    pass_two_tabs(learner, site, exercises)
    page = learner.page
    progress_shows_them(page, site, exercises)
    honest = make_certificate(page, tmp_path)
    assert violations(page) == [], "the progress page, its certificate shown"

    page.goto(site.url + "verify/")
    verdicts, over = page_verdicts(page, honest)
    assert verdicts["add"] == verdicts["local-add"] == "pass" and verdicts["mul"] == "fail"
    assert over == [], "every claim the honest file makes, its code earns"

    forged = tampered(honest, tmp_path)
    page.reload()  # a repeat visit (how long it takes is a figure, not a test's to assert)
    verdicts, over = page_verdicts(page, forged)
    assert verdicts["add"] == verdicts["mul"] == "fail" and verdicts["local-add"] == "pass"
    assert over == ["add", "mul"]
    assert violations(page) == [], "the verify page, with what the code earns"

    assert command_verdicts(forged) == (verdicts, 1)
