"""Live lesson cells (issue #52, widget/src/lessons/) in Chromium: every block of every lesson page,
unedited and run in page order, gives the output the build shows; on the neuron's page an edit of
the bias, run with the blocks below, gives what CPython gives for the edited code, outputs and
redrawn graph alike; an endless loop, an exception, a huge print and `import js` each get a clear
message at their line, and the next run works; a block that rewrites its Python's functions
changes no exercise verdict on the same page; an edit is kept across a reload until Reset."""

import json
import re
from urllib.parse import urlsplit

import pytest
from conftest import SITE
from learner import Learner, announced_roles
from playwright.sync_api import expect

from devtools import serve
from grader.exercises import load_catalog
from grader.runner_data import runner_data
from runner.notebook import start

LESSONS = sorted(
    page.parent.relative_to(SITE).as_posix().strip(".") + "/"
    for page in SITE.glob("**/index.html")
    if "data-lesson" in page.read_text(encoding="utf-8")
)
NEURON = "gradients/"  # docs/gradients.md: the neuron with its bias `b`
BIAS = "6.8813735870195432"
RUN_MS = 90_000  # Python's first load, then every block, on a busy two-core machine
# what a block's output region shows (hidden: nothing), for each block of the page
OUTPUTS = """() => [...document.querySelectorAll("[data-cell]")].map((cell) => {
  const output = cell.querySelector("[data-cell-output]");
  return output.hidden ? "" : (output.querySelector("code")?.textContent ?? "");
})"""


@pytest.fixture(scope="module")
def isolated_site():
    with serve.start(SITE, isolate=True) as running:
        yield running


@pytest.fixture
def open_page(fresh_page):
    """`open_page(url) -> page`: a reader who edited no block (conftest.py `fresh_page`)."""

    def open_at(url):
        page = fresh_page(site_url="{0.scheme}://{0.netloc}/".format(urlsplit(url)))
        page.goto(url)
        expect(page.locator("[data-cells-toolbar]")).to_be_visible()
        return page

    return open_at


def lesson(page):
    """The page's data-lesson JSON (its template's content)."""
    carrier = page.locator("template[data-lesson]")
    return json.loads(carrier.evaluate("(el) => el.content.textContent"))


def cell(page, index):
    return page.locator(f'[data-cell="{index}"]')


def run_and_wait(page, button):
    """Presses `button` (a block's Run, or Run all) and waits until no block is running."""
    toolbar = page.locator("[data-cells-toolbar]")
    button.click()
    expect(toolbar).to_have_attribute("data-cells-busy", "false", timeout=RUN_MS)


def run_block(page, index):
    run_and_wait(page, cell(page, index).get_by_role("button", name="Run", exact=True))


def write(page, index, code):
    """Types `code` over block `index`'s, through its editor (made at the click)."""
    block = cell(page, index)
    block.locator(".highlight:not([data-cell-output]) code:visible, .cm-content").first.click()
    editor = block.locator(".cm-content")
    expect(editor).to_be_focused()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(code)
    expect(block).to_have_attribute("data-cell-edited", "")


def note(page, index):
    return cell(page, index).locator(".mg-cell__note")


@pytest.mark.parametrize("path", LESSONS)
def test_every_block_gives_the_builds_output(site, open_page, path):
    page = open_page(site.url + path)
    built = page.evaluate(OUTPUTS)
    cells = lesson(page)["cells"]
    assert len(built) == len(cells)
    assert set(
        page.locator("[data-cell]").evaluate_all("(els) => els.map((e) => e.dataset.cellState)")
    ) == {"idle"}
    run_and_wait(page, page.get_by_role("button", name="Run all"))
    states = page.locator("[data-cell]").evaluate_all(
        "(els) => els.map((e) => e.dataset.cellState)"
    )
    assert states == ["error" if block["raises"] else "done" for block in cells]
    assert page.evaluate(OUTPUTS) == built
    # nothing the build shows went out of date: the session ran the page's own code
    assert page.locator('[data-graph-state="stale"], [data-claim-state="stale"]').count() == 0
    # blocks are not graded: a page started a judge only if a widget of it grades
    grades = page.locator("[data-exercise-widget], [data-engine-check-widget]").count() > 0
    assert ("judge" in announced_roles(page)) is grades


def cpython_run(codes):
    """Each block's output, and the session, as CPython runs the page's blocks in order."""
    notebook = start(runner_data(load_catalog()))
    return [notebook.run(code)["output"] for code in codes], notebook


def test_an_edit_of_the_bias_changes_the_outputs_and_the_graph_as_cpython_says(site, open_page):
    page = open_page(site.url + NEURON)
    data = lesson(page)
    codes = [block["code"] for block in data["cells"]]
    edited = next(i for i, code in enumerate(codes) if BIAS in code)
    codes[edited] = codes[edited].replace(BIAS, "8.0")
    write(page, edited, codes[edited])
    below = range(edited + 1, len(codes))
    assert {cell(page, i).get_attribute("data-cell-state") for i in below} == {"stale"}
    run_block(page, edited)
    expect(note(page, edited)).to_have_text(f"Ran blocks 1-{edited} first.")
    for i in below:
        run_block(page, i)
    expected, notebook = cpython_run(codes)
    shown = page.evaluate(OUTPUTS)
    assert shown[edited:] == [
        text if text.endswith("\n") or not text else text + "\n" for text in expected[edited:]
    ]
    assert "o = 0.9640" in shown[edited]  # tanh(2.0): the edit reached the page
    # the neuron's graph, after the last block: redrawn from the session, as CPython draws it
    graph = max(range(len(data["graphs"])), key=lambda j: data["graphs"][j]["after"])
    figure = page.locator(f'[data-graph="{graph}"]')
    expect(figure).to_have_attribute("data-graph-state", "current")
    drawn = json.loads(notebook.graph_json(data["graphs"][graph]["expr"], "LR"))
    svg = figure.locator(".mg-graph__canvas--wide svg")
    expect(svg).to_have_attribute("aria-label", drawn["words"])
    assert "b is a leaf (data 8.0000" in drawn["words"]
    texts = svg.locator("text").all_text_contents()
    for field in re.findall(r"(?:data|grad) -?\d+\.\d{4}", drawn["dot"]):
        assert field in texts, field
    # the prose's numbers the edit made untrue are marked, never rewritten
    claim = page.locator("[data-claim]").filter(has_text="o ≈ 0.7071")
    expect(claim).to_have_attribute("data-claim-state", "stale")
    expect(claim).to_have_text("o ≈ 0.7071")


TROUBLE = [
    # code, what the block says, the line marked
    (
        "x = 0\nwhile True:\n    x += 1",
        r"Stopped after \d+ s, the time limit, at line [23]: .* session is kept",
        None,
    ),
    ("x = 1\nraise ValueError('no good')", r"^Line 2 of this block raised ValueError: no good$", 2),
    (
        "for i in range(100_000):\n    print(i)",
        r"output was cut: the block printed 100000 lines",
        None,
    ),
    (
        "import js",
        r"^Line 1 of this block raised ModuleNotFoundError: `js` is not available here",
        1,
    ),
]


def test_trouble_gets_a_clear_message_at_its_line_and_the_next_run_works(isolated_site, open_page):
    page = open_page(isolated_site.url + NEURON)
    assert page.evaluate("() => crossOriginIsolated")
    built = page.evaluate(OUTPUTS)[0]
    for code, said, line in TROUBLE:
        write(page, 0, code)
        if code == "import js":  # the keyboard runs it too
            page.keyboard.press("ControlOrMeta+Enter")
            expect(page.locator("[data-cells-toolbar]")).to_have_attribute(
                "data-cells-busy", "false", timeout=RUN_MS
            )
        else:
            run_block(page, 0)
        expect(cell(page, 0)).to_have_attribute(
            "data-cell-state", "done" if "cut" in said else "error"
        )
        expect(note(page, 0)).to_have_text(re.compile(said))
        marked = cell(page, 0).locator(".cm-line.mg-line-error")
        if line:
            expect(marked).to_have_count(1)
            assert marked.evaluate("(el) => [...el.parentNode.children].indexOf(el) + 1") == line
    shown = page.evaluate(OUTPUTS)[0]
    assert shown.startswith("ModuleNotFoundError: `js` is not available here")
    # Stop interrupts a loop at once, and the session goes on
    write(page, 0, "while True:\n    pass")
    cell(page, 0).get_by_role("button", name="Run", exact=True).click()
    stop = cell(page, 0).get_by_role("button", name="Stop", exact=True)
    expect(stop).to_be_visible()
    stop.click()
    expect(page.locator("[data-cells-toolbar]")).to_have_attribute("data-cells-busy", "false")
    expect(note(page, 0)).to_have_text(re.compile(r"^Stopped at line [12]\. The session is kept"))
    expect(stop).to_be_hidden()
    cell(page, 0).get_by_role("button", name="Reset", exact=True).click()
    expect(cell(page, 0)).not_to_have_attribute("data-cell-edited", "")
    run_block(page, 0)
    expect(cell(page, 0)).to_have_attribute("data-cell-state", "done")
    assert page.evaluate(OUTPUTS)[0] == built


def test_an_endless_loop_without_isolation_ends_the_session_and_the_next_run_starts_afresh(
    site, open_page
):
    page = open_page(site.url + NEURON)
    write(page, 1, "while True:\n    pass")
    run_block(page, 1)
    expect(cell(page, 1)).to_have_attribute("data-cell-state", "error")
    expect(note(page, 1)).to_have_text(re.compile(r"time limit: .* Python was restarted"))
    expect(cell(page, 0)).to_have_attribute("data-cell-state", "stale")  # its session is gone
    cell(page, 1).get_by_role("button", name="Reset", exact=True).click()
    run_block(page, 2)
    expect(note(page, 2)).to_have_text("Ran blocks 1 and 2 first.")
    expect(cell(page, 2)).to_have_attribute("data-cell-state", "done")


# a lesson block that rewrites what a verdict could be made of, in its own Python: the bodies of
# functions, which outlive the block (names rebound would be put back after it)
TAMPERING = """import sys
yes = lambda *args, **kwargs: True
for module in list(sys.modules.values()):
    for name in ("agrees", "judge", "grade", "claim_holds"):
        function = getattr(module, name, None)
        if hasattr(function, "__code__"):
            function.__code__ = yes.__code__
open("verdict.txt", "w").write("pass")
print("patched")"""


def test_a_lesson_block_changes_no_exercise_verdict(site, open_page):
    """The exercises' page holds lesson blocks and every op's tab: a block's tampering stays in
    the page's notebook, and the tabs are graded as ever."""
    page = open_page(site.url + "exercises/")
    page.locator("details").evaluate_all("(all) => all.forEach((d) => { d.open = true; })")
    write(page, 0, TAMPERING)
    run_block(page, 0)
    assert page.evaluate(OUTPUTS)[0] == "patched\n"
    write(page, 1, "from runner.precision import agrees\nagrees(0.0, 1.0)")
    run_block(page, 1)
    assert page.evaluate(OUTPUTS)[1] == "True\n"  # the rewrite holds in the notebook
    learner = Learner(page, site.url + "exercises/")
    add = load_catalog()["add"]
    assert learner.solve(add.label, "self.grad = out.grad\nother.grad = out.grad") == "fail"
    assert learner.solve(add.label, add.solutions["add"]) == "pass"


# a way to the runner's global scope that no hiding of names closes: Pyodide's own finder
REACHING = """import gc
finder = next(o for o in gc.get_objects() if type(o).__name__ == "JsFinder")
scope = finder.jsproxies["js"]
names = ("caches", "indexedDB", "BroadcastChannel", "Worker", "SharedWorker", "importScripts")
print([name for name in (*names, "fetch") if getattr(scope, name, None) is not None])"""


def test_a_block_that_reaches_javascript_finds_no_storage_channel_or_worker(site, open_page):
    """widget/src/worker/cut-off.js: before learner code, the runner's scope loses them."""
    page = open_page(site.url + "value/")
    write(page, 0, REACHING)
    run_block(page, 0)
    assert page.evaluate(OUTPUTS)[0] == "['fetch']\n"


def test_an_edit_is_kept_across_a_reload_until_reset(site, open_page):
    page = open_page(site.url + NEURON)
    write(page, 2, "a = 1")
    page.reload()
    block = cell(page, 2)
    expect(block).to_have_attribute("data-cell-edited", "")
    expect(block.locator(".mg-cell__edited")).to_be_visible()
    expect(block.locator(".cm-content")).to_have_text("a = 1")
    expect(block).to_have_attribute("data-cell-state", "stale")
    page.get_by_role("button", name="Reset all").click()
    expect(block).not_to_have_attribute("data-cell-edited", "")
    expect(block).to_have_attribute("data-cell-state", "idle")
    page.reload()
    expect(cell(page, 2).locator(".highlight:not([data-cell-output])")).to_be_visible()


# what a new deploy that changed block 2 leaves: the learner's edit, made to other code than its
CHANGED_SINCE = """() => {
  const key = Object.keys(localStorage).find((k) => k.endsWith(":cell:gradients.md:2"));
  const saved = JSON.parse(localStorage.getItem(key));
  localStorage.setItem(key, JSON.stringify({ ...saved, base: "0" }));
}"""


def test_an_edit_made_before_the_course_changed_the_block_is_offered_back(site, open_page):
    page = open_page(site.url + NEURON)
    write(page, 2, "a = 1")
    page.evaluate(CHANGED_SINCE)
    page.reload()
    block = cell(page, 2)
    offer = block.locator("[data-cell-earlier]")
    expect(offer).to_contain_text("The course changed this block since you edited it")
    expect(block).not_to_have_attribute("data-cell-edited", "")  # it shows the page's code
    block.locator(".highlight:not([data-cell-output]) code").first.click()  # its editor made
    block.get_by_role("button", name="Reset").click()  # no edit of the new code: nothing lost
    expect(offer).to_be_visible()
    page.reload()
    offer.get_by_role("button", name="Put back my edit").click()
    expect(block.locator(".cm-content")).to_have_text("a = 1")
    expect(block.locator(".cm-content")).to_be_focused()
    expect(block).to_have_attribute("data-cell-edited", "")
    expect(offer).to_have_count(0)
    page.reload()  # now an edit of the block as it is
    expect(block.locator(".cm-content")).to_have_text("a = 1")
    expect(offer).to_have_count(0)


def test_python_waits_for_a_block_and_the_keyboard_reaches_and_edits_one(site, open_page):
    page = open_page(site.url + NEURON)
    page.wait_for_timeout(1500)  # read a while: no block reached, no Python
    assert page.evaluate("() => document.documentElement.dataset.pythonState ?? 'idle'") == "idle"
    page.get_by_role("button", name="Reset all").focus()
    code = cell(page, 0).get_by_role("group", name="Code of block 1: press Enter to edit it")
    page.keyboard.press("Tab")
    expect(code).to_be_focused()
    expect(page.locator("html")).to_have_attribute("data-python-state", re.compile("loading|ready"))
    page.keyboard.press("Enter")  # the editor, in the block's place
    editor = cell(page, 0).locator(".cm-content")
    expect(editor).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(cell(page, 0).get_by_role("button", name="Run", exact=True)).to_be_focused()
