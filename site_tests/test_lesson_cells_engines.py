"""Live lesson cells (widget/src/lessons/) in Firefox ESR and WebKitGTK, on the neuron's page:
Run all gives every block the build's output, an edited block that raises says so at its line,
and a graph after an edited block is redrawn (Graphviz's WebAssembly, on the page). Driven as
test_browser_engines.py drives its journey (engines/drivers.py), with the cells' steps below
added to the page's `courseJourney`."""

import sys
from pathlib import Path

import pytest
from conftest import SITE

from devtools import serve

sys.path.insert(0, str(Path(__file__).resolve().parent / "engines"))
from drivers import JOURNEY, FirefoxDriver, WebKitDriver, missing  # noqa: E402

PAGE = "gradients/"
CELLS = """(() => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function until(find, what, timeoutMs = 110_000) {
    const started = Date.now();
    for (;;) {
      const found = find();
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }
  const toolbar = () => document.querySelector("[data-cells-toolbar]");
  const lessonData = () => {
    return document.querySelector("template[data-lesson]").content;
  };
  const cells = () => [...document.querySelectorAll("[data-cell]")];
  const button = (within, name) =>
    [...within.querySelectorAll("button")].find((b) => b.textContent === name);
  const outputs = () => cells().map((cell) => {
    const output = cell.querySelector("[data-cell-output]");
    return output.hidden ? "" : (output.querySelector("code")?.textContent ?? "");
  });
  async function press(found) {
    found.click();
    await until(() => toolbar().dataset.cellsBusy === "false", "the blocks to run");
    return { shown: outputs(), states: cells().map((cell) => cell.dataset.cellState) };
  }
  Object.assign((window.courseJourney ??= {}), {
    cellsCode: (index) =>
      JSON.parse(lessonData().textContent).cells[index].code,
    cellsGraph(index) {
      const figure = document.querySelector(`[data-graph="${index}"]`);
      const label = figure.querySelector(".mg-graph__canvas--wide svg").getAttribute("aria-label");
      return { state: figure.dataset.graphState, label };
    },
    async cellsRunAll() {
      await until(toolbar, "the page's blocks");
      const built = outputs();
      return { built, ...(await press(button(toolbar(), "Run all"))) };
    },
    async cellsRunEdited(index, code) {
      const cell = cells()[index];
      cell.querySelector(".highlight:not([data-cell-output]) code").click();
      const editor = await until(() => cell.querySelector(".cm-content"), "the editor");
      editor.focus();
      document.execCommand("selectAll");
      document.execCommand("insertText", false, code);
      await until(() => cell.hasAttribute("data-cell-edited"), "the edit");
      await press(button(cell, "Run"));
      const note = cell.querySelector(".mg-cell__note").textContent;
      return { state: cell.dataset.cellState, note };
    },
  });
})();"""


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def engine(request):
    """A browser of the engine at the neuron's page, with the cells' steps."""
    absent = missing(request.param)
    if absent:
        pytest.fail(f"{request.param} cannot run here: {absent} is missing (`make setup`)")
    with serve.start(SITE) as site:
        url = site.url + PAGE
        if request.param == "firefox":
            driver = FirefoxDriver()
            driver._send(op="goto", url=url, inject=JOURNEY + CELLS)
        else:
            driver = WebKitDriver()
            driver.goto(url)
            driver.driver.execute_script(CELLS)
        try:
            yield driver
        finally:
            driver.close()


def test_run_all_gives_the_builds_outputs(engine):
    ran = engine.call("cellsRunAll")
    assert ran["states"] == ["done"] * len(ran["built"]), ran
    assert ran["shown"] == ran["built"]


def test_an_error_is_said_at_its_line(engine):
    ran = engine.call("cellsRunEdited", 0, "x = 1\nraise ValueError('no good')")
    assert ran == {"state": "error", "note": "Line 2 of this block raised ValueError: no good"}


def test_a_graph_after_an_edited_block_is_redrawn(engine):
    code = engine.call("cellsCode", 2)
    assert 'a = Value(2.0, label="a")' in code
    edited = code.replace('a = Value(2.0, label="a")', 'a = Value(3.0, label="a")')
    assert engine.call("cellsRunEdited", 2, edited)["state"] == "done"
    graph = engine.call("cellsGraph", 0)
    assert graph["state"] == "current"
    assert "a is a leaf (data 3.0000" in graph["label"], graph
