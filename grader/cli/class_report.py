"""The class at a glance (`regrade --report FOLDER`): a page and a CSV of what a regrade found.

FOLDER/index.html shows, per exercise, the share of learners who passed, tried (attempted but
did not pass) and did not start, and how many learners each named cause (a diagnosis key,
grader/diagnosis/explain.py's NAMES) was found in, in a table and a uPlot chart; then each learner's
next hint. FOLDER/diagnoses.csv holds the same counts, a row per exercise and outcome or cause.

The page opens from disk and fetches nothing: uPlot's two files are copied beside it, and its
Content-Security-Policy lets it load nothing else. Learners' names and the grader's words
(which quote their code) are escaped: a hand-in is untrusted.
"""

import csv
import hashlib
import html
import json
import re
import sys
from base64 import b64encode
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from .. import checker
from ..diagnosis.explain import DIAGNOSES, NAMES
from ..kinds.op import op_tabs
from ..kinds.registry import KINDS
from .gradebook import number, points

UPLOT = Path(__file__).resolve().parents[2] / "node_modules" / "uplot" / "dist"
UPLOT_FILES = ("uPlot.iife.min.js", "uPlot.min.css")
CAUSES = DIAGNOSES | checker.DIAGNOSES  # every named cause a tab's diagnoses may hold
CHARTED = 8  # causes a chart shows, the most common; its table lists them all
FIRST_HINT = "the exercise's first hint"
OUTCOMES = (("passed", "passed"), ("tried", "tried"), ("not_started", "did not start"))
COLUMNS = ["exercise", "label", "kind", "key", "name", "learners", "share of class"]


@dataclass(frozen=True)
class Standing:
    """One exercise across the class: how many learners passed, tried and did not start, and
    how many learners who tried had each named cause (most first)."""

    exercise: str
    label: str  # the exercise's own: `__mul__`
    title: str  # as the page names it: `mul (__mul__)`
    passed: int
    tried: int
    not_started: int
    causes: tuple  # (key, learners), most learners first
    unnamed: int  # learners who tried and have no named cause

    @property
    def learners(self):
        return self.passed + self.tried + self.not_started


@dataclass(frozen=True)
class NextHint:
    """What to tell one learner next: the exercise it is about ("" when none) and why this
    hint (`source`)."""

    learner: str
    file: str
    points: str
    exercise: str
    hint: str
    source: str  # "" for a file that could not be graded
    problem: str = ""  # why it could not be graded


def title(exercise):
    """`mul (__mul__)`; an exercise named as its label, once."""
    return exercise.id if exercise.label == exercise.id else f"{exercise.id} ({exercise.label})"


def standing(exercise, graded):
    """The Standing of `exercise` across `graded` (hand-ins that could be graded)."""
    tabs = [hand_in.tabs.get(exercise.id) for hand_in in graded]
    tried = [tab for tab in tabs if tab is not None and tab.verdict != "pass"]
    counts, unnamed = {}, 0
    for tab in tried:
        keys = {key for key in tab.diagnoses if key in CAUSES}
        unnamed += not keys
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
    order = list(CAUSES)  # ties in the grader's own order
    causes = sorted(counts.items(), key=lambda item: (-item[1], order.index(item[0])))
    return Standing(
        exercise=exercise.id,
        label=exercise.label,
        title=title(exercise),
        passed=sum(tab is not None and tab.verdict == "pass" for tab in tabs),
        tried=len(tried),
        not_started=tabs.count(None),
        causes=tuple(causes),
        unnamed=unnamed,
    )


def next_hint(hand_in, exercises, weights):
    """The NextHint of one hand-in, about its first failing exercise (`first_failing`): the
    grader's diagnosis, as its feedback file words it; else, for a run that raised or was
    stopped, what stopped it; else the exercise's first hint. When it failed none, the first
    hint of the first exercise it has not started."""
    if hand_in.problem:
        return NextHint(hand_in.learner, hand_in.file, "", "", "", "", hand_in.problem)
    scored = sum(points(hand_in, weights).values())
    said = f"{number(scored)} of {number(sum(weights.values()))}"
    hint = partial(NextHint, hand_in.learner, hand_in.file, said)
    failing, graph = first_failing(hand_in, exercises)
    tab = hand_in.tabs.get(failing)
    if tab is not None and tab.diagnosis:
        return hint(title(exercises[failing]), tab.diagnosis, "the grader's diagnosis")
    if tab is not None and tab.verdict != "fail":
        return hint(title(exercises[failing]), tab.summary, "what stopped the run")
    if tab is not None:
        return hint(title(exercises[failing]), first_hint(exercises[failing]), FIRST_HINT)
    if failing:  # an op a failing graph runs, not started on its own tab
        source = f"{FIRST_HINT}: {title(graph)} fails, and runs this exercise's code, not started"
        return hint(title(exercises[failing]), first_hint(exercises[failing]), source)
    unstarted = [exercise for name, exercise in exercises.items() if name not in hand_in.tabs]
    if not unstarted:
        return hint("", "", "passed every exercise")
    source = "the first hint of their first exercise not started"
    return hint(title(unstarted[0]), first_hint(unstarted[0]), source)


def first_failing(hand_in, exercises):
    """`(id, graph)`: the first exercise, in tab order, that `hand_in` tried and did not pass;
    but when that is a graph whose code comes from op tabs (`graph`), the first of those tabs
    not passed, since the graph fails with it. `(None, None)` when it failed none."""
    for name, exercise in exercises.items():
        tab = hand_in.tabs.get(name)
        if tab is None or tab.verdict == "pass":
            continue
        if KINDS[exercise.kind].needs_op_tabs:
            for op in exercise.ops:
                own = op_exercise(exercises, exercise.design, op)
                if own and getattr(hand_in.tabs.get(own), "verdict", "") != "pass":
                    return own, exercise
        return name, None
    return None, None


def op_exercise(exercises, design, op):
    """The id of the op exercise of `op` in `design` (the tab whose code a graph runs)."""
    found = (e.id for e in op_tabs(exercises, design))
    return next((name for name in found if exercises[name].ops == (op,)), None)


def first_hint(exercise):
    return exercise.hints[0] if exercise.hints else "Read the exercise's prompt again."


def write_report(folder, graded, exercises, weights):
    """FOLDER/index.html, FOLDER/diagnoses.csv and uPlot's files, for `graded` (the Graded
    hand-ins of a regrade); `weights`, each exercise's points. Returns the page's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    usable = [hand_in for hand_in in graded if not hand_in.problem]
    standings = [standing(exercise, usable) for exercise in exercises.values()]
    hints = sorted(
        (next_hint(hand_in, exercises, weights) for hand_in in graded),
        key=lambda hint: (hint.learner.casefold(), hint.file),
    )
    write_csv(folder / "diagnoses.csv", standings)
    charts = copy_uplot(folder)
    page = folder / "index.html"
    page.write_text(render(standings, hints, len(graded), charts), encoding="utf-8")
    return page


def write_csv(path, standings):
    """A row per exercise and outcome (passed, tried, not_started), then per named cause."""
    with open(path, "w", newline="", encoding="utf-8") as file:
        rows = csv.writer(file)
        rows.writerow(COLUMNS)
        for found in standings:
            named = [("outcome", key, name, getattr(found, key)) for key, name in OUTCOMES]
            named += [("diagnosis", key, NAMES[key], count) for key, count in found.causes]
            for kind, key, name, count in named:
                share = f"{count / found.learners:.3f}" if found.learners else ""
                rows.writerow([found.exercise, found.label, kind, key, name, count, share])


def copy_uplot(folder):
    """uPlot's script and style copied into `folder`: True, or False (with a warning) when
    they are not installed, and the page has its tables alone."""
    if not all((UPLOT / name).is_file() for name in UPLOT_FILES):
        print(
            f"--report: uPlot is not in {UPLOT}, so the page has no charts (its tables say it "
            "all): `make regrade-setup` installs it.",
            file=sys.stderr,
        )
        return False
    for name in UPLOT_FILES:
        (Path(folder) / name).write_bytes((UPLOT / name).read_bytes())
    return True


def percent(count, whole):
    return f"{count / whole:.0%}" if whole else "0%"


def inline(text):
    """The grader's words as HTML: escaped, `code` in backticks as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def render(standings, hints, handed_in, charts):
    """The whole page."""
    learners = standings[0].learners if standings else 0
    unreadable = handed_in - learners
    lines = [
        f"{handed_in} hand-in{'' if handed_in == 1 else 's'} regraded; the shares are of the "
        f"{learners} that could be graded."
    ]
    if unreadable:
        lines.append(
            f"{unreadable} could not be graded: the table of next hints names "
            f"{'it' if unreadable == 1 else 'them'}."
        )
    sections = [overview(standings), *(exercise_section(found) for found in standings)]
    body = (
        '<a class="skip" href="#hints">Skip to each learner\'s next hint</a>\n'
        "<header><h1>The class at a glance</h1>\n"
        + "".join(f"<p>{html.escape(line)}</p>\n" for line in lines)
        + "</header>\n<main>\n"
        + "\n".join(sections)
        + hints_section(hints)
        + "</main>\n"
    )
    return document(body, chart_data(standings), charts)


def counted(count, whole):
    return f"{count} ({percent(count, whole)})"


def overview(standings):
    """The table of every exercise: its outcomes and its most common cause."""
    rows = []
    for found in standings:
        n = found.learners
        cause = f"{NAMES[found.causes[0][0]]} ({found.causes[0][1]})" if found.causes else "none"
        link = f'<a href="#ex-{found.exercise}">{html.escape(found.title)}</a>'
        outcomes = [(counted(getattr(found, key), n), "n") for key, _ in OUTCOMES]
        rows.append((link, [*outcomes, (html.escape(cause), "")]))
    heads = [
        ("Exercise", ""),
        ("Passed", "n"),
        ("Tried", "n"),
        ("Did not start", "n"),
        ("Most common cause", ""),
    ]
    caption = (
        "Learners per exercise, in tab order: how many passed, tried without passing and did not "
        "start, and the cause found in most of those who tried."
    )
    return (
        '<section aria-labelledby="every"><h2 id="every">Every exercise</h2>\n'
        + cards("overview", caption, heads, rows)
        + "</section>\n"
    )


def cards(kind, caption, heads, rows):
    """A table that a phone shows as a card per row (`.cards` in STYLE), the roles keeping it
    a table for screen readers, which drop a restyled table's own. `heads`: each column's
    `(name, class)`; `rows`: each row's `(header, [(cell, class)])`, all HTML."""
    head = "".join(
        f'<th scope="col" role="columnheader"{klass(css)}>{name}</th>' for name, css in heads
    )
    body = []
    for header, cells in rows:
        tds = "".join(
            f'<td role="cell"{klass(css)} data-label="{name}">{cell}</td>'
            for (cell, css), (name, _) in zip(cells, heads[1:], strict=True)
        )
        body.append(f'<tr role="row"><th scope="row" role="rowheader">{header}</th>{tds}</tr>')
    return (
        f'<table class="cards {kind}" role="table">\n<caption>{caption}</caption>\n'
        f'<thead role="rowgroup"><tr role="row">{head}</tr></thead>\n<tbody role="rowgroup">\n'
        + "\n".join(body)
        + "\n</tbody></table>\n"
    )


def klass(css):
    return f' class="{css}"' if css else ""


def exercise_section(found):
    """One exercise: its outcomes in a sentence, its chart, and the table of its causes."""
    n, tried = found.learners, found.tried
    said = (
        f"Of {n} learner{'' if n == 1 else 's'}, {found.passed} passed "
        f"({percent(found.passed, n)}), {tried} tried without passing ({percent(tried, n)}) and "
        f"{found.not_started} did not start ({percent(found.not_started, n)})."
    )
    return (
        f'<section id="ex-{found.exercise}" aria-labelledby="ex-{found.exercise}-h">'
        f'<h2 id="ex-{found.exercise}-h">{html.escape(found.title)}</h2>\n<p>{said}</p>\n'
        f'<figure><div class="chart" role="img" aria-label="{html.escape(chart_words(found))}">'
        "</div>\n<figcaption>Learners per outcome and, among those who tried, per cause (the "
        f"{CHARTED} most common): bars on the class's scale, {n} learners.</figcaption>"
        "</figure>\n" + causes_table(found) + "</section>\n"
    )


def chart_words(found):
    """The chart as a sentence, for a screen reader."""
    bars = [f"{name} {getattr(found, key)}" for key, name in OUTCOMES]
    bars += [f"{NAMES[key]} {count}" for key, count in found.causes[:CHARTED]]
    return f"A bar chart of learners: {', '.join(bars)}."


def causes_table(found):
    """The causes found in the learners who tried, each with what the grader means by it."""
    if not found.tried:
        return "<p>No learner tried this exercise without passing it.</p>\n"
    unnamed = (
        f"<p>For {found.unnamed} of the {found.tried} who tried, the grader named no cause.</p>\n"
        if found.unnamed
        else ""
    )
    if not found.causes:
        return unnamed
    rows = [
        (
            f'<span class="cause">{html.escape(NAMES[key])}</span>{meaning(key)}',
            [(str(count), "n"), (percent(count, found.tried), "n")],
        )
        for key, count in found.causes
    ]
    caption = (
        f"What the grader found in the {found.tried} learners who tried: how many had each cause, "
        "and their share of those who tried (a learner may have more than one cause)."
    )
    heads = [("Cause", ""), ("Learners", "n"), ("Share", "n")]
    return cards("causes", caption, heads, rows) + unnamed


def meaning(key):
    """What the grader means by cause `key`, as HTML (none for a cause it cannot explain)."""
    if key in checker.DIAGNOSES:  # said of the checker, in a few words
        return f'<span class="means">In their gradient checker, {checker.DIAGNOSES[key]}.</span>'
    return f'<span class="means">{inline(DIAGNOSES[key])}</span>' if DIAGNOSES[key] else ""


def hints_section(hints):
    """Each learner's next hint, and how it was chosen."""
    rows = []
    for hint in hints:
        file = html.escape(Path(hint.file).name)
        who = f'{html.escape(hint.learner)}<span class="file">{file}</span>'
        if not hint.source:
            words = f"This file could not be graded: {html.escape(hint.problem)}."
        elif hint.hint:
            source = f'<span class="source">From {html.escape(hint.source)}.</span>'
            words = inline(hint.hint) + source
        else:
            words = "None: every exercise is passed."
        cells = [(hint.points, "n"), (html.escape(hint.exercise), "exercise"), (words, "hint")]
        rows.append((who, cells))
    heads = [("Learner", ""), ("Points", "n"), ("Exercise", ""), ("Next hint", "")]
    caption = (
        "Each learner, by name: their points, the exercise to work on next and the hint to give "
        "them."
    )
    return (
        '<section id="hints" aria-labelledby="hints-h">'
        '<h2 id="hints-h">Each learner\'s next hint</h2>\n'
        f"<p>{HOW_CHOSEN}</p>\n" + cards("hints", caption, heads, rows) + "</section>\n"
    )


HOW_CHOSEN = (
    "Each learner's hint is about the first exercise, in tab order, that they tried and did not "
    "pass; when that exercise is a graph, whose code comes from the op tabs, it is about the "
    "first of those tabs not passed instead. The hint is the grader's diagnosis, in the words of "
    "their feedback file (the numbers and where to measure, never the rule), when the grader "
    "found one; what stopped their run, when it raised or was stopped; and otherwise the "
    "exercise's first hint. A learner who failed none gets the first hint of the first exercise "
    "they have not started."
)


def chart_data(standings):
    """Each exercise's bars for the page's script: labels, kinds (colours) and counts."""
    charts = []
    for found in standings:
        bars = [(name, key, getattr(found, key)) for key, name in OUTCOMES]
        bars += [(NAMES[key], "cause", count) for key, count in found.causes[:CHARTED]]
        labels, kinds, counts = zip(*bars, strict=True)
        charts.append({"labels": labels, "kinds": kinds, "counts": counts, "most": found.learners})
    return charts


def document(body, charts, with_uplot):
    """The page around `body`: its style, its charts' data and script, and a policy that lets
    it load uPlot's two files beside it and nothing else."""
    data = json.dumps(charts, ensure_ascii=False).replace("<", "\\u003c")
    policy = (
        f"default-src 'none'; style-src 'self' {digest(STYLE)}; "
        f"script-src 'self' {digest(SCRIPT)}; img-src data:"
    )
    uplot_css = '<link rel="stylesheet" href="uPlot.min.css">\n' if with_uplot else ""
    uplot_js = '<script src="uPlot.iife.min.js"></script>\n' if with_uplot else ""
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        f"<title>The class at a glance</title>\n{uplot_css}<style>{STYLE}</style>\n"
        f"</head>\n<body>\n{body}"
        f'<script type="application/json" id="charts">{data}</script>\n'
        f"{uplot_js}<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )


def digest(text):
    """A CSP source for an inline `<style>` or `<script>` holding `text`."""
    return f"'sha256-{b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


# light by default, dark when the reader's system is; the bars' colours are read by the script
STYLE = """
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --stripe: #f6f8fa;
  --link: #0550ae; --passed: #1a7f37; --tried: #bc4c00; --not_started: #818b98;
  --cause: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --stripe: #151b23;
    --link: #71b7ff; --passed: #3fb950; --tried: #f0883e; --not_started: #7d8590;
    --cause: #4493f8;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0 auto; max-width: 72rem; padding: 1rem 1.25rem 3rem; background: var(--bg);
  color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
}
h1 { font-size: 1.75rem; margin: 0.5rem 0; }
h2 {
  font-size: 1.3rem; margin: 2.5rem 0 0.5rem; padding-top: 1rem;
  border-top: 1px solid var(--line);
}
a { color: var(--link); }
a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.skip { position: absolute; left: -100vw; }
.skip:focus { position: static; display: inline-block; margin-bottom: 0.5rem; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
caption { text-align: left; color: var(--muted); padding-bottom: 0.4rem; }
th, td {
  text-align: left; vertical-align: top; padding: 0.4rem 0.6rem;
  border-bottom: 1px solid var(--line);
}
thead th { border-bottom-width: 2px; }
tbody tr:nth-child(even) { background: var(--stripe); }
tbody th { font-weight: 600; }
.n { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.means, .file, .source {
  display: block; font-weight: normal; color: var(--muted); font-size: 0.9em;
}
.means { max-width: 48rem; }
figure { margin: 0.75rem 0; }
figcaption { color: var(--muted); font-size: 0.9em; }
.chart { min-height: 1px; }
@media (max-width: 40rem) {
  body { padding: 0.75rem 0.75rem 2rem; font-size: 15px; }
  th, td { padding: 0.35rem 0.4rem; }
  th.n { white-space: normal; }
  /* a card per row: each cell labelled with its column's name (which screen readers skip:
     they announce the column's header) */
  .cards thead {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  }
  .cards tr { display: grid; border-bottom: 1px solid var(--line); padding: 0.3rem 0; }
  .cards th, .cards td { display: block; border: 0; padding: 0.15rem 0.4rem; }
  .cards td:empty, .cards td.hint::before { display: none; }
  .cards td::before {
    content: attr(data-label) ": "; content: attr(data-label) ": " / ""; color: var(--muted);
  }
  .cards td.n { text-align: left; }
  .cards td.n::before {
    display: block; font-size: 0.85em; content: attr(data-label); content: attr(data-label) / "";
  }
  .overview tr { grid-template-columns: repeat(3, 1fr); }
  .overview th, .overview td:last-child { grid-column: 1 / -1; }
  .hints tr { grid-template-columns: 1fr auto; }
  .causes tr { grid-template-columns: 1fr 1fr; }
  .causes th { grid-column: 1 / -1; }
  .hints .exercise, .hints .hint { grid-column: 1 / -1; }
}
"""

# a bar chart per exercise (uPlot), in the scheme's colours, redrawn when the scheme changes and
# kept to its box's width; without uPlot the tables say it all
SCRIPT = """
(() => {
  if (typeof uPlot === "undefined") return;
  const charts = JSON.parse(document.getElementById("charts").textContent);
  const boxes = [...document.querySelectorAll(".chart")];
  const KINDS = ["passed", "tried", "not_started", "cause"];
  const FONT = "13px system-ui, sans-serif";
  const ROW = 28;
  const colour = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = FONT;
  const widest = (labels) => Math.max(...labels.map((label) => measure.measureText(label).width));
  const plots = [];

  function counts(chart, ctx, u) {
    ctx.save();
    ctx.font = FONT.replace("13px", `${13 * devicePixelRatio}px`);
    ctx.fillStyle = colour("--fg");
    ctx.textAlign = "left"; // uPlot's axes leave it centred
    ctx.textBaseline = "middle";
    chart.counts.forEach((count, i) => {
      const x = u.valToPos(count, "y", true) + 6 * devicePixelRatio;
      ctx.fillText(String(count), x, u.valToPos(i, "x", true));
    });
    ctx.restore();
  }

  function options(chart, width) {
    const fg = colour("--fg");
    const n = chart.labels.length;
    const bars = (kind) => ({
      label: kind,
      fill: colour(`--${kind}`),
      stroke: colour(`--${kind}`),
      paths: uPlot.paths.bars({ size: [0.7, ROW] }),
      points: { show: false },
    });
    return {
      width,
      height: n * ROW + 64,
      padding: [8, 36, 0, 0], // room for the longest bar's count
      legend: { show: false },
      cursor: { show: false },
      select: { show: false },
      scales: {
        x: { time: false, ori: 1, dir: -1, range: [-0.5, n - 0.5] },
        y: { ori: 0, dir: 1, range: [0, Math.max(chart.most, 1)] },
      },
      axes: [
        {
          side: 3, stroke: fg, font: FONT, gap: 6, grid: { show: false }, ticks: { show: false },
          size: Math.min(Math.ceil(widest(chart.labels)) + 12, width * 0.5),
          splits: () => chart.labels.map((_, i) => i),
          values: () => chart.labels,
        },
        {
          side: 2, stroke: fg, font: FONT, label: "learners", labelFont: FONT, space: 40,
          incrs: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000],
          grid: { stroke: colour("--line"), width: 1 }, ticks: { stroke: colour("--line") },
        },
      ],
      series: [{}, ...KINDS.map(bars)],
      hooks: { draw: [(u) => counts(chart, u.ctx, u)] },
    };
  }

  function data(chart) {
    const xs = chart.labels.map((_, i) => i);
    const only = (kind) => chart.kinds.map((k, i) => (k === kind ? chart.counts[i] : null));
    return [xs, ...KINDS.map(only)];
  }

  function draw() {
    plots.splice(0).forEach((plot) => plot.destroy());
    boxes.forEach((box, i) => {
      plots.push(new uPlot(options(charts[i], box.clientWidth), data(charts[i]), box));
      box.dataset.drawn = "true";
    });
  }

  draw();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", draw);
  new ResizeObserver(() => {
    boxes.forEach((box, i) => {
      const plot = plots[i];
      const width = box.clientWidth;
      if (plot && plot.width !== width) plot.setSize({ width, height: plot.height });
    });
  }).observe(document.body);
})();
"""
