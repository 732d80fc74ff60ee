"""The course under MkDocs: exercise blocks become widget elements (the `course` extension), and
the build ships their assets (the plugin's site step)."""

import io
import json
import modulefinder
import pickle
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import markdown
import pytest
from conftest import unused

from course import assets, csp, lessons
from course.imports import module_name, package_modules
from course.widget_data import (
    UnknownExercise,
    engine_check_data,
    engine_check_html,
    safe_json,
    widget_data,
    widget_html,
)
from grader.exercises import load_catalog
from grader.scaffold import labels
from microgpt.names import load as load_names

ROOT = Path(__file__).resolve().parent.parent
CATALOG = load_catalog()
UNKNOWN = unused("softmax", CATALOG)  # an exercise id exercises/ does not define
DATA = re.compile(r"<template data-exercise-data>(.*?)</template>", re.S)
# what mkdocs.yml names for the widgets, for either generator
ASSETS_YML = (
    f"extra_javascript:\n  - path: {assets.WIDGET_JS}\n    type: module\n"
    f"extra_css:\n  - {assets.WIDGET_CSS}\n"
)


def names(ids):
    """A stand-in renderer that shows what the block handed over."""
    return f"<widget {' '.join(ids)}>"


def replaced(text):
    widgets = {
        "exercise": names,
        "training": lambda body: "<training>",
        "engine-check": lambda body: f"<engine {body.strip()}>",
    }
    return lessons.prepare(textwrap.dedent(text), "page.md", ROOT, to_html, widgets)


def to_html(text):
    return markdown.markdown(text)


def test_block_becomes_the_rendered_widget():
    """The fence, ids on one or several lines, is replaced by the renderer's output."""
    page = replaced("""\
        # Title

        ```exercise
        add mul
        diamond
        ```

        After.
        """)
    assert "<widget add mul diamond>" in page
    assert "```" not in page
    assert page.startswith("# Title\n") and page.rstrip().endswith("After.")


def test_other_fences_are_kept_with_what_they_hold():
    """An exercise block shown inside a longer fence is left alone, and a `python` fence keeps
    its code, marked as the page's first live cell (course/cells.py)."""
    page = textwrap.dedent("""\
        ````markdown
        ```exercise
        add
        ```
        ````

        ~~~python
        x = 1
        ~~~
        """)
    got = replaced(page)
    assert got.startswith(page.partition("~~~python")[0])
    assert got.endswith('\n\n~~~ { .python data-mg-cell="0" }\nx = 1\n~~~\n')
    assert got.count("<template data-lesson>") == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("```exercise\nadd\n", "page.md, line 1: a ``` fence is never closed"),
        ("text\n\n```exercise\n```\n", "page.md, line 3: the ```exercise block names no exercise"),
        ("```exercise\nadd mul add\n```\n", "page.md, line 1: the ```exercise block repeats add"),
        (
            "- a\n\n    ```exercise\n    add\n    ```\n",
            "page.md, line 3: write a ```exercise fence at the left margin",
        ),
    ],
)
def test_malformed_blocks_are_refused_with_their_line(text, message):
    """Unclosed, empty, repeating or indented blocks are refused, naming the page and line."""
    with pytest.raises(lessons.LessonError, match=re.escape(message)):
        replaced(text)


def test_unknown_id_is_refused_naming_it_and_the_known_ones():
    """An id that exercises/ does not define raises UnknownExercise listing the real ids."""
    with pytest.raises(UnknownExercise) as caught:
        widget_data(["mul", UNKNOWN], CATALOG, to_html)
    assert f"'{UNKNOWN}'" in str(caught.value)
    assert ", ".join(CATALOG) in str(caught.value)
    with pytest.raises(UnknownExercise, match="unknown exercise 'dimaond'; did you mean 'diamond'"):
        widget_data(["dimaond"], CATALOG, to_html)


def test_a_graph_exercise_alone_brings_the_op_tabs_it_runs():
    data = widget_data(["mul", "diamond"], CATALOG, to_html)
    ids = [exercise["id"] for exercise in data["exercises"]]
    ops = CATALOG["diamond"].ops
    assert ids[0] == "mul" and ids[-1] == "diamond"
    assert sorted(ids[:-1]) == sorted(f"{op}" for op in ops), "each op the diamond runs, once"


def test_widget_data_carries_each_exercise_in_block_order():
    """Exercises come in the block's order, with Markdown rendered and code left as text."""
    data = widget_data(["diamond", "mul"], CATALOG, to_html)
    order = [exercise["id"] for exercise in data["exercises"]]
    assert order.index("diamond") < order.index("mul")
    diamond, mul = (data["exercises"][order.index(name)] for name in ("diamond", "mul"))
    assert mul["label"] == "__mul__" and mul["ops"] == ["mul"] and mul["kind"] == "op"
    assert mul["scope"] == {"mul": ["self", "other", "out", "math"]}
    assert diamond["kind"] == "graph" and diamond["design"] == mul["design"] == "closures"
    assert mul["prompt"].startswith("<p>") and "`" not in mul["prompt"]
    assert mul["hints"] == [to_html(hint) for hint in CATALOG["mul"].hints]
    assert mul["stubs"] == {"mul": CATALOG["mul"].stubs["mul"]}
    assert mul["solutions"] == {"mul": CATALOG["mul"].solutions["mul"]}
    assert mul["test_code"] == "" and diamond["test_code"] == CATALOG["diamond"].test_code
    assert "backward()" in diamond["test_code"]
    assert set(diamond["stubs"]) == set(CATALOG["diamond"].ops)
    assert mul["version"] == CATALOG["mul"].version


def test_scaffold_segments_join_into_the_value_class():
    """The design's text pieces and slots, in order, name every op once, with its starter code."""
    design = widget_data(["add"], CATALOG, to_html)["designs"]["closures"]
    segments = design["segments"]
    assert [piece["slot"] for piece in segments if "slot" in piece] == list(labels("closures"))
    assert design["labels"]["add"] == "__add__" and design["expression"] is False
    assert design["stubs"]["relu"] == CATALOG["relu"].stubs["relu"]
    text = "".join(piece.get("text", "") for piece in segments)
    assert "class Value" in text and "def backward(self):" in text


def test_json_cannot_break_out_of_its_element():
    """`</script>`, `<!--` and `&` in the data are escaped, and JSON.parse reads them back."""
    data = {"prompt": "</script><script>alert(1)</script> <!-- & -->", "code": "if a<b>c: pass"}
    text = safe_json(data)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == data


def test_widget_html_holds_the_json_and_a_noscript_message():
    """The element has the testing contract's attribute, the data, and a <noscript> message."""
    data = widget_data(["add"], CATALOG, to_html)
    element = widget_html(data)
    assert element.startswith('<div class="exercise-widget" data-exercise-widget')
    assert json.loads(DATA.search(element).group(1)) == data
    assert "<noscript>" in element and "JavaScript" in element


def test_an_engine_check_block_names_a_design_and_carries_its_op_tabs_without_words():
    """ "Check my whole engine" on its own (widget/src/exercise/engine-check.js): the design's
    op tabs, for their saved code and rungs (the number of hints), no prompt nor solution."""
    assert "<engine closures>" in replaced("```engine-check\nclosures\n```\n")
    data = engine_check_data("closures", CATALOG, to_html)
    ops = sorted(e.ops[0] for e in CATALOG.values() if e.kind == "op" and e.design == "closures")
    assert sorted(tab["ops"][0] for tab in data["exercises"]) == ops
    for tab in data["exercises"]:
        assert tab["solutions"] == {} and tab["prompt"] == "" and set(tab["hints"]) == {""}
        assert len(tab["hints"]) == len(CATALOG[tab["id"]].hints)
    assert list(data["designs"]) == ["closures"]
    element = engine_check_html(data)
    assert element.startswith('<div class="engine-check-widget" data-engine-check-widget')
    assert json.loads(DATA.search(element).group(1)) == data
    with pytest.raises(ValueError, match="names one design"):
        engine_check_data("micrograd", CATALOG, to_html)


def test_built_page_holds_the_engine_check(site):
    page = (site / "index.html").read_text()
    assert "data-engine-check-widget" in page
    data = json.loads(DATA.findall(page)[1])
    assert list(data["designs"]) == ["local_grads"] and data["time_limit"] > 0


def test_a_page_with_only_an_engine_check_starts_python_early(site):
    page = "<html><head></head><body><div data-engine-check-widget></div></body></html>"
    assert "data-worker=" in assets.start_python_early(page, "", site)


@pytest.mark.parametrize(
    "widget, judge",
    [("data-exercise-widget", True), ("data-verify-page", True), ("data-training-widget", False)],
)
def test_only_a_page_that_grades_starts_a_judge_early(site, widget, judge):
    """Training and microgpt hold sessions in runners: their pages start no judge."""
    page = f"<html><head></head><body><div {widget}></div></body></html>"
    script = re.search(r"<script data-worker=[^>]*>", assets.start_python_early(page, "", site))
    assert ("data-judge" in script[0]) is judge


def test_missing_node_modules_says_to_run_npm_ci(tmp_path):
    """Without node_modules/pyodide the build stops with a message naming `npm ci`."""
    with pytest.raises(assets.AssetError, match="run `npm ci`"):
        assets.copy_pyodide(tmp_path, tmp_path / "site")


def mkdocs_build(project, page, setting=""):
    """Build a one-page MkDocs project in `project` with the course's plugin and extension,
    strictly, and one more of its settings (`"solutions: false"`) if given."""
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "index.md").write_text(textwrap.dedent(page))
    (project / "mkdocs.yml").write_text(
        "site_name: test\ntheme:\n  name: material\n  font: false\n"
        f"{ASSETS_YML}plugins:\n  - course\n"
        f"markdown_extensions:\n  - course:\n      root: {ROOT}\n"
        "      every_exercise_shown: false\n"  # one page, a few exercises
        + (f"      {setting}\n" if setting else "")
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=project,
        capture_output=True,
        text=True,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A built one-page site with a widget of two exercises."""
    project = tmp_path_factory.mktemp("project")
    page = (
        "# Page\n\nPython is {{ python_download }}.\n\n```exercise\nmul diamond\n```\n"
        "\n```engine-check\nlocal_grads\n```\n"
    )
    done = mkdocs_build(project, page)
    assert done.returncode == 0, done.stderr
    return project / "site"


def test_built_page_embeds_the_widget_data(site):
    """The page's JSON parses to the data of the block's exercises."""
    page = (site / "index.html").read_text()
    data = json.loads(DATA.search(page).group(1))
    ids = [exercise["id"] for exercise in data["exercises"]]
    assert ids[0] == "mul" and ids[-1] == "diamond"  # and the op tabs the diamond runs
    assert set(ids) == {*CATALOG["diamond"].ops, "diamond"}
    assert data["exercises"][0]["prompt"].startswith("<p>")


def test_a_page_states_the_size_of_pythons_download_as_built(site):
    """The marker becomes the size of what a first visit's worker fetches, compressed and not:
    Pyodide's files but its full standard library, the course's archives and the worker."""
    page = (site / "index.html").read_text()
    said = re.search(r"Python is ([\d.]+) MB \(([\d.]+) MB from a host that does not", page)
    assert said, "the marker was not replaced"
    pyodide = next((site / assets.PYODIDE_DIR).iterdir())
    files = [pyodide / name for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")]
    files += [*(site / assets.PYTHON_DIR).rglob("*.zip"), site / assets.worker_js(site)]
    raw = sum(path.stat().st_size for path in files)
    assert float(said.group(2)) == round(raw / 1e6, 1)
    assert 0.3 * raw / 1e6 < float(said.group(1)) < 0.7 * raw / 1e6


def test_built_page_loads_the_widget_as_a_module(site):
    """The widget's bundle is a module script and its CSS a stylesheet, both relative."""
    page = (site / "index.html").read_text()
    assert '<script src="assets/course/widget.js" type="module"></script>' in page
    assert '<link rel="stylesheet" href="assets/course/widget.css">' in page


def test_a_page_with_an_exercise_starts_python_from_its_head(site):
    """The bundle's early start is inlined with the worker's address; widget/src/python/python.js
    adopts the workers it starts."""
    head = (site / "index.html").read_text().split("</head>")[0]
    early = (site / assets.EARLY_JS).read_text().strip()
    worker = assets.worker_js(site)
    assert re.fullmatch(r"assets/course/worker-\w+\.js", worker), worker
    assert f'<script data-worker="{worker}" data-judge>{early}</script>' in head


def test_python_starts_before_the_style_sheets_load_and_after_the_policy(site):
    """A script after a style sheet waits for it; one before the policy is not covered by it."""
    head = (site / "index.html").read_text().split("</head>")[0]
    start = head.index("<script data-worker=")
    assert head.index('http-equiv="Content-Security-Policy"') < start < head.index("stylesheet")


def test_memory_snapshots_are_off_unless_asked_for(site, tmp_path):
    """Pyodide's snapshots are private API: the worker gets the flag only from mkdocs.yml."""
    assert "snapshot:!1" in (site / assets.worker_js(site)).read_text()
    done = mkdocs_build(tmp_path, "# Page\n\n```exercise\nadd\n```\n", "memory_snapshot: true")
    assert done.returncode == 0, done.stderr
    built = tmp_path / "site"
    assert "snapshot:!0" in (built / assets.worker_js(built)).read_text()


def test_solutions_false_leaves_the_references_out_of_the_pages(tmp_path):
    page = "# Page\n\n```exercise\nmul\n```\n\n```exercise\nfind-bug-2\n```\n"
    done = mkdocs_build(tmp_path, page, "solutions: false")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "site" / "index.html").read_text()
    mul, engine = (json.loads(found) for found in DATA.findall(page))
    assert [(e["solutions"], e["fix"]) for e in mul["exercises"] + engine["exercises"]] == [
        ({}, [])
    ] * 2
    # (the engine as shipped holds every op's reference; the mul widget holds none of them)
    assert CATALOG["mul"].solutions["mul"].splitlines()[0] not in json.dumps(mul)


def test_a_page_without_an_exercise_starts_no_python(site):
    page = "<html><head><title>t</title></head><body><p>lesson</p></body></html>"
    assert assets.start_python_early(page, "lesson/", site) == page
    with_widget = page.replace("<p>lesson</p>", "<div data-exercise-widget></div>")
    worker = f'"../{assets.worker_js(site)}"'
    assert worker in assets.start_python_early(with_widget, "lesson/", site)


def test_build_bundles_the_widget(site):
    """widget/build.mjs wrote the page module, the worker and the CSS."""
    for name in assets.BUNDLE_FILES:
        found = list((site / assets.COURSE_DIR).glob(name))
        assert len(found) == 1 and found[0].stat().st_size > 0, name


def test_the_page_modules_sit_beside_each_other(site):
    """The page's module and its chunks (the training widget's, the code they share) find
    worker.js and the site's root by URLs relative to their own: they must share a folder."""
    course = site / assets.COURSE_DIR
    scripts = sorted(path.relative_to(course).as_posix() for path in course.rglob("*.js"))
    assert len(scripts) > len(assets.BUNDLE_FILES) - 1, "no chunk: is the training widget split?"
    assert all("/" not in name for name in scripts), scripts


def test_build_copies_pyodide(site):
    """Pyodide's core files are copied byte for byte from the pinned npm package."""
    for name in assets.PYODIDE_FILES:
        copied = site / assets.PYODIDE_DIR / assets.pyodide_version(ROOT) / name
        assert copied.read_bytes() == (ROOT / "node_modules" / "pyodide" / name).read_bytes()


def zip_names(site, name):
    """The names in the built archive `name`, and a function reading one of them."""
    [archive] = (site / assets.PYTHON_DIR).glob(f"*/{name}")
    with zipfile.ZipFile(archive) as opened:
        names = set(opened.namelist())
    return names, lambda inner: zipfile.ZipFile(archive).read(inner)


def modules(folder):
    """The compiled files a package's modules become: `runner/observe.pyc`."""
    return {path.relative_to(ROOT).as_posix() + "c" for path in (ROOT / folder).glob("*.py")}


def test_the_runner_gets_the_runner_and_its_data_and_nothing_of_the_grader(site):
    """The worker that runs learner code unpacks runner.zip only: no answer key to find; the
    trainers' packages come with it."""
    names, read = zip_names(site, assets.RUNNER_ZIP)
    packages = modules("runner") | modules("training") | modules("microgpt")
    instructors = {f"{assets.SEALED_ENTRY}c"}  # hand-ins' sealed runner
    assert names == packages - instructors | {"runner/data.json"}
    known = json.loads(read("runner/data.json"))
    assert set(known["exercises"]) == set(CATALOG)


def test_microgpt_s_names_are_a_download_of_their_own_one_a_line(site):
    [written] = (site / assets.PYTHON_DIR).glob(f"*/{assets.NAMES_TXT}")
    assert written.read_text(encoding="utf-8").split() == load_names()


def test_the_judge_gets_the_grader_and_every_exercise_file(site):
    """grader.zip has the judge's grader modules, compiled, every exercise file, and the
    catalog as the build read it, which the judge takes instead of reading them again."""
    names, read = zip_names(site, assets.GRADER_ZIP)
    assert pickle.loads(read("grader/catalog.pickle")) == CATALOG
    sources = zipfile.ZipFile(io.BytesIO(assets.grader_sources(ROOT, CATALOG))).namelist()
    judges = {f"{name}c" for name in sources if name.startswith("grader/") and name.endswith(".py")}
    expected = judges | {"grader/catalog.pickle"}
    for exercise in CATALOG.values():
        expected.add(f"exercises/{exercise.id}/exercise.toml")
        if exercise.known_wrong:
            expected.add(f"exercises/{exercise.id}/.meta/wrong_answers.toml")
        if exercise.kind == "op":
            expected.add(f"exercises/{exercise.id}/stub.py")  # read as text, never imported
            expected.add(f"exercises/{exercise.id}/.meta/solution.py")
    assert expected <= names
    assert not [name for name in names if name.startswith("grader/") and name.endswith(".py")]


def test_grader_zip_holds_exactly_the_modules_the_judge_imports():
    """What the judge's worker imports, found by the standard library's modulefinder (not the
    build's own reading of imports), is what grader.zip holds: no command-line module."""
    finder = modulefinder.ModuleFinder(path=[str(ROOT), *sys.path])
    for entry in assets.JUDGE_ENTRIES:
        finder.import_hook(entry)
    imported = {name for name in finder.modules if name.partition(".")[0] == "grader"}
    sources = zipfile.ZipFile(io.BytesIO(assets.grader_sources(ROOT, CATALOG))).namelist()
    held = {
        module_name(name) for name in sources if name.startswith("grader/") and name.endswith(".py")
    }
    assert held == imported
    assert not {name for name in held if name.startswith("grader.cli")}
    assert "grader.cli.regrade" in package_modules("grader")  # the command line is still there


def test_the_archives_sources_are_the_same_for_the_same_files():
    """Two writes give identical bytes, so an unchanged archive stays cached."""
    assert assets.runner_sources(ROOT, CATALOG) == assets.runner_sources(ROOT, CATALOG)
    assert assets.grader_sources(ROOT, CATALOG) == assets.grader_sources(ROOT, CATALOG)


def test_unknown_id_fails_the_build_naming_the_page(tmp_path):
    """`mkdocs build` stops with the page's path, the line and the unknown id."""
    done = mkdocs_build(tmp_path, f"# Page\n\n```exercise\nadd {UNKNOWN}\n```\n")
    assert done.returncode != 0
    assert f"index.md, line 3: unknown exercise '{UNKNOWN}'" in done.stderr
    assert "Traceback" not in done.stderr, "one line, not Python's traceback"


@pytest.mark.parametrize(
    ("page", "message"),
    [
        (
            "# Page\n\n```exercize\nadd\n```\n",
            "index.md, line 3: ```exercize is no fence the course knows, so it would show as "
            "code: did you mean ```exercise?",
        ),
        (
            "# Page\n\n```python\nprint(2 + 2)\n```\n\n```output\n5\n```\n",
            "index.md, line 8: the ```output block shows '5' where the block at line 3 prints '4'",
        ),
    ],
)
def test_an_authoring_slip_fails_the_build_in_one_line(tmp_path, page, message):
    done = mkdocs_build(tmp_path, page)
    assert done.returncode != 0
    assert message in done.stderr
    assert "Traceback" not in done.stderr, "one line, not Python's traceback"


def build_one_page(project, config):
    """`mkdocs build` of a one-page project with `config` as its mkdocs.yml."""
    (project / "docs").mkdir()
    (project / "docs" / "index.md").write_text("# Page\n")
    (project / "mkdocs.yml").write_text(config)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet"],
        cwd=project,
        capture_output=True,
        text=True,
    )


def test_a_config_without_the_course_s_extension_says_where_to_list_it(tmp_path):
    done = build_one_page(tmp_path, "site_name: test\nplugins:\n  - course\n")
    assert done.returncode != 0
    assert (
        "mkdocs.yml: no `course` under markdown_extensions: add `  - course` there" in done.stderr
    )


def test_a_training_block_with_something_inside_fails_the_build_naming_the_page(tmp_path):
    done = mkdocs_build(tmp_path, "# Page\n\n```training\nhidden = 8\n```\n")
    assert done.returncode != 0
    assert "index.md, line 3: a ```training block takes nothing inside it" in done.stderr


def test_every_page_ships_a_policy_allowing_its_inline_scripts(site):
    """A CSP <meta> comes before any script and allows each inline script by its hash."""
    for name in ("index.html", "404.html"):
        page = (site / name).read_text()
        meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
        assert meta and meta.start() < page.index("<script"), name
        scripts = list(csp.inline_scripts(page))
        assert scripts, name  # mkdocs-material writes a few
        for script in scripts:
            assert csp.source_hash(script) in meta.group(1), (name, script[:60])


def test_build_ships_the_service_worker_at_the_site_root_for_its_deploy(site):
    """course/offline.py: the deploy's id on its first line, then widget/isolate.js as it is."""
    deploy = json.loads((site / "deploy.json").read_text())["deploy"]
    first, rest = (site / "isolate.js").read_text().split("\n", 1)
    assert first == f'const DEPLOY = "{deploy}";'
    assert rest == (ROOT / "widget" / "isolate.js").read_text()


def test_widget_data_carries_the_time_limit(site):
    data = json.loads(DATA.search((site / "index.html").read_text()).group(1))
    assert data["time_limit"] == 5


def test_a_time_limit_that_is_not_a_positive_number_of_seconds_fails_the_build(tmp_path):
    done = build_one_page(
        tmp_path,
        "site_name: test\nplugins:\n  - course\n"
        f"markdown_extensions:\n  - course:\n      root: {ROOT}\n      time_limit: 0\n",
    )
    assert done.returncode != 0
    assert "time_limit is in seconds" in done.stderr
    assert "Traceback" not in done.stderr, "one line, not Python's traceback"
