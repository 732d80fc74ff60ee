"""The answer only when the learner asks (grader/disclosure.py): below the formula rung, no word
the course shows states a local derivative, in any notation; at it, the rule is told.

Every stub and known wrong answer of every exercise is read as its golden transcript holds it
(tests/test_transcripts.py holds the transcripts to the grader's live words), with the learner's
own code taken out: their code, or Python's grouping of it, is theirs to read back."""

import ast
import re
from pathlib import Path

import pytest

from grader import grade
from grader.cli.report import golden
from grader.cli.transcript import FORMULA_RUNG
from grader.diagnosis.reading import grouped
from grader.disclosure import normalized, tells
from grader.exercises import catalog, expectations
from grader.ops import OPS

EXERCISES = catalog()
# every tab but the engines', whose words tests/test_engine.py holds to their own rule
RULED = [e for e in EXERCISES.values() if e.kind != "engine"]
ANSWERS = [
    (exercise, name, bodies, wanted)
    for exercise, name, bodies, should_pass, wanted in expectations(EXERCISES)
    if not should_pass
]
IDS = [f"{exercise.id}: {name}" for exercise, name, *_ in ANSWERS]


def without_their_code(text, bodies):
    """`text` without the learner's lines and the code spans that are theirs: a piece of their
    code as they wrote it, or as Python groups it (grader/diagnosis/reading.py)."""
    lines = {line.strip() for body in bodies.values() for line in body.splitlines()}
    text = "\n".join(line for line in text.splitlines() if line.strip() not in lines)
    code = "".join(squash(body) for body in bodies.values())
    regrouped = {squash(piece) for body in bodies.values() for piece in _grouped(body)}

    def theirs(span):
        squashed = squash(span.group(1))
        return squashed in code or squashed in regrouped

    return re.sub(r"`([^`]+)`", lambda span: "" if theirs(span) else span.group(), text)


def without_theirs(text, bodies):
    """`without_their_code`, and the tuples a learner's local gradients gave (at b = 1.0,
    `(self.data, self.data)` gives add's (1, 1): their numbers, not the rule)."""
    return re.sub(r"local gradients are \([^)]*\)", "", without_their_code(text, bodies))


def squash(code):
    return "".join(code.split())


def _grouped(body):
    """Each expression of `body` as Python groups it, and each assignment so read."""
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return []
    found = [grouped(node) for node in ast.walk(tree) if isinstance(node, ast.expr)]
    assigned = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1]
    return found + [f"{ast.unparse(n.targets[0])} = {grouped(n.value)}" for n in assigned]


@pytest.mark.parametrize(("exercise", "name", "bodies", "wanted"), ANSWERS, ids=IDS)
def test_below_the_formula_rung_no_word_states_a_local_derivative(exercise, name, bodies, wanted):
    said = golden(exercise)[name]
    assert tells(without_their_code(said, bodies)) == []


@pytest.mark.parametrize(("exercise", "name", "bodies", "wanted"), ANSWERS, ids=IDS)
def test_below_the_formula_rung_the_diagnosis_still_says_what_went_wrong(
    exercise, name, bodies, wanted
):
    said = golden(exercise)[name]
    if not wanted or wanted == ("nothing",):
        return  # the numbers and where to measure, below
    diagnosis = next(line for line in said.splitlines() if line.startswith("diagnosis:"))
    owned = [key for key in wanted if any(key in op.wrong for op in OPS.values())]
    if owned:  # a wrong rule: where to measure it
        assert re.search(r"\b(nudge|measure)", diagnosis, re.IGNORECASE), diagnosis


def test_at_the_formula_rung_each_wrong_rule_is_told():
    """The other side of the line: every answer whose rule is wrong gets the rule, once the
    learner has reached the formula rung."""
    told = 0
    for exercise, name, bodies, wanted in ANSWERS:
        owned = {op for op in OPS for key in wanted if key in OPS[op].wrong}
        if owned:
            said = without_their_code(golden(exercise)[name + FORMULA_RUNG], bodies)
            assert {op for op, _ in tells(said)} >= owned, (exercise.id, name)
            told += 1
    assert told >= 20


def test_the_rung_is_each_op_s_own():
    """On a graph tab, an op whose own tab reached its formula rung is told; the rest are not."""
    bodies = dict(EXERCISES["diamond"].solutions, tanh="self.grad += (1 - x**2) * out.grad")
    below = grade("diamond", bodies, EXERCISES, told=["mul"])["diagnosis"]
    told = grade("diamond", bodies, EXERCISES, told=["tanh"])["diagnosis"]
    assert tells(below) == [] and "tanh" in {op for op, _ in tells(told)}


@pytest.mark.parametrize("exercise", RULED, ids=lambda e: e.id)
def test_the_hints_below_the_last_and_the_prompt_state_no_rule(exercise):
    for text in (exercise.prompt, *exercise.hints[:-1]):
        assert tells(text, exercise.ops) == [], text


@pytest.mark.parametrize(
    "exercise", [e for e in EXERCISES.values() if e.kind == "op"], ids=lambda e: e.id
)
def test_the_last_hint_of_an_op_tab_is_its_formula_rung(exercise):
    assert tells(exercise.hints[-1], exercise.ops), exercise.hints[-1]


@pytest.mark.parametrize("op", OPS.values(), ids=list(OPS))
def test_each_op_knows_how_its_rule_is_written(op):
    """The patterns are not vacuous: each catches the op's own rule, and each classic wrong
    rule's told explanation names the rule while its hint does not."""
    assert op.tells and tells(op.rule, [op.name])
    for key, wrong in op.wrong.items():
        assert tells(wrong.below) == [], key


@pytest.mark.parametrize(
    ("op", "text"),
    [
        ("sigmoid", "s·(1 - s)"),
        ("sigmoid", "s * (1 - s)"),
        ("sigmoid", "it is s times one minus s"),
        ("sigmoid", "σ′(x) = s · (1 − s)"),
        ("tanh", "1 - t**2"),
        ("tanh", "1 − t²"),
        ("tanh", "one minus the square of its output"),
        ("pow", "n * x**(n - 1)"),
        ("pow", "n · xⁿ⁻¹"),
        ("log", "1 / x"),
        ("log", "the reciprocal of x"),
        ("exp", "the exponential is its own slope"),
        ("mul", "`other.data * out.grad`"),
        ("add", "(1, 1)"),
        ("relu", "(out.data > 0) * out.grad"),
        ("relu", "(out.data > 0.0)"),
        ("sigmoid", "s(1-s)"),
        ("sigmoid", "\\sigma(x)(1-\\sigma(x))"),
        ("sigmoid", "s - s**2"),
        ("tanh", "1.0 - t**2"),
        ("tanh", "1 - math.tanh(x)**2"),
        ("tanh", "(1-t)*(1+t)"),
        ("tanh", "sech²x"),
        ("exp", "math.exp(x) * out.grad"),
        ("exp", "\\frac{d}{dx} e^x = e^x"),
        ("log", "out.grad / x"),
        ("log", "{1 \\over x}"),
        ("mul", "out.grad * other.data"),
    ],
)
def test_a_rule_is_found_in_any_notation(op, text):
    assert op in {found for found, _ in tells(text)}


def test_numbers_and_bookkeeping_are_not_rules():
    for text in (
        "x.grad should be 0.25, from x's one use, in `sigmoid`.",
        "given x = 2.0, y = -3.0, out.grad = 1.0",
        "A node used more than once receives a share from each use, and `=` keeps only the last "
        "one. Use `+=` so the shares add up.",
        "Nudge x at 0.5: compare the slope with the 0.75 your code gave per unit of out.grad.",
        "`1 // 2.0` is `0.0`",
        "σ(x) = 1 / (1 + e⁻ˣ)",
        "x**-1 * out.grad",
    ):
        assert tells(text) == [], text


def test_spellings_are_brought_to_one():
    assert normalized("1 − t²")[1] == "1-t**2"
    assert normalized("`s · (1 − s)`")[1] == "s*(1-s)"


ROOT = Path(__file__).resolve().parent.parent
NAV = [
    found.groups()
    for found in map(re.compile(r"  - (.+): (\S+\.md)$").match, (ROOT / "mkdocs.yml").open())
    if found
]
PAGES = {file: (ROOT / "docs" / file).read_text() for _, file in NAV}


def _page_of(exercise):
    blocks = {f: re.findall(r"```exercise\n(.*?)\n```", text, re.S) for f, text in PAGES.items()}
    return next(
        i for i, (_, f) in enumerate(NAV) if any(exercise.id in b.split() for b in blocks[f])
    )


def _works_out(text, exercise):
    """Whether a page states the exercise's rule, or holds a line of its reference."""
    squashed = "".join(text.split())
    lines = [
        "".join(line.split()) for body in exercise.solutions.values() for line in body.splitlines()
    ]
    return bool(tells(text, exercise.ops)) or any(line and line in squashed for line in lines)


@pytest.mark.parametrize(
    "exercise", [e for e in EXERCISES.values() if e.kind == "op"], ids=lambda e: e.id
)
def test_a_tab_says_which_earlier_page_worked_its_rule_out_and_no_other_tab_has_one(exercise):
    """A tab that asks the learner to find its rule has it on no earlier page; one that an
    earlier page worked through names that page (the widget says so on the tab)."""
    earlier = [title for title, f in NAV[: _page_of(exercise)] if _works_out(PAGES[f], exercise)]
    assert exercise.worked == (earlier[0] if earlier else ""), earlier


def test_the_exercise_page_names_the_worked_tabs_and_the_tabs_to_find():
    text = PAGES["exercises.md"]
    paragraph = next(p for p in text.split("\n\n") if "were worked through on earlier pages" in p)
    worked, _, rest = paragraph.partition("write them without looking back")
    to_find = rest.partition("are yours to find")[0]
    tabs = [e for e in EXERCISES.values() if e.kind == "op" and e.design == "closures"]
    assert set(re.findall(r"`([^`]+)`", worked)) == {e.label for e in tabs if e.worked}
    assert set(re.findall(r"`([^`]+)`", to_find)) == {e.label for e in tabs if not e.worked}


def _sections(exercise):
    answers = {name: bodies for e, name, bodies, *_ in expectations(EXERCISES) if e is exercise}
    for section, said in golden(exercise).items():
        yield section, without_their_code(said, answers[section.removesuffix(FORMULA_RUNG)])


@pytest.mark.parametrize("exercise", RULED, ids=lambda e: e.id)
def test_each_design_speaks_its_own_words(exercise):
    """The local-gradients design has tuples and no `out`: its words never send the learner to
    `.grad +=` or `out.data`; a one-input op's words never name `other.grad`."""
    one_input = all(op in OPS and OPS[op].arity == 1 for op in exercise.ops)
    for section, said in _sections(exercise):
        if exercise.design != "closures":
            assert not re.search(r"out\.data|\.grad \+=|`out`", said), section
        if one_input:
            assert "other.grad" not in said, section


@pytest.mark.parametrize(
    ("exercise", "name", "bodies", "wanted"),
    [a for a in ANSWERS if a[0].kind == "op" and a[0].design == "closures"],
    ids=[
        i
        for a, i in zip(ANSWERS, IDS, strict=True)
        if a[0].kind == "op" and a[0].design == "closures"
    ],
)
def test_a_number_to_compare_is_what_nudge_shows_there(exercise, name, bodies, wanted):
    """ "Nudge x at 0.5: compare the slope with the 0.75 your code gave": the nudge tool, at
    those inputs, shows 0.75 beside the slope (runner/nudge.py, on the learner's own code)."""
    said = golden(exercise)[name]
    found = re.search(
        r"Nudge (.+?)(?: with n = (\S+))?: compare (?:(\w+)'s slope|the slope) with the "
        r"(-?[\d.e+-]+) your code gave",
        said,
    )
    if not found:
        return
    places, n, whose, number = found.groups()
    values = {
        part.group(1): float(part.group(2))
        for part in re.finditer(r"(\w+) at (-?[\d.e+-]+)", places)
    }
    if n is not None:
        values["n"] = float(n)
    measured = nudge_answer(exercise.id, bodies, values)
    got = next(i["got"] for i in measured["inputs"] if i["name"] == (whose or "x"))
    assert abs(got - float(number)) < 1e-6, (name, got, number)


def nudge_answer(exercise_id, bodies, values):
    from grader.runner_data import runner_data
    from runner.nudge import nudge

    return nudge(exercise_id, bodies, values, known=runner_data(EXERCISES))


def test_the_engine_check_s_golden_words_state_no_local_derivative():
    """ "Check my whole engine"'s words for every known wrong answer, below the formula rung
    (tests/fuzz_transcript.txt, held to the live words by tests/test_fuzz.py); the judged
    check quotes the learner's own line where it raised, as any check does."""
    sections = (Path(__file__).parent / "fuzz_transcript.txt").read_text().split("\n## ")
    wrong = {f"{e.id}: {w.name}": w.bodies for e in catalog().values() for w in e.known_wrong}
    wrong = {
        name: bodies for name, bodies in wrong.items() if catalog()[name.split(":")[0]].kind == "op"
    }
    assert len(sections) == len(wrong) + 4  # and the references, stubs, a SyntaxError, a time-out
    for section in sections:
        bodies = wrong.get(section.removeprefix("## ").partition("\n")[0], {})
        assert tells(without_theirs(section, bodies)) == [], section


@pytest.mark.parametrize(
    "text",
    [
        "(f(x + h) - f(x - h)) / (2h)",
        "(f(x+h) − f(x−h)) / 2h",
        "\\frac{f(x+h) - f(x-h)}{2h}",
        "take the central difference",
        "measure on both sides of x",
        "from x - h to x + h",
        "|a − b| / max(|a|, |b|, tiny)",
        "divide the gap by the larger of |a| and |b|",
    ],
)
def test_the_checker_s_formulas_are_found_in_any_notation(text):
    assert tells(text, ["checker"]), text


@pytest.mark.parametrize(
    "exercise", [e for e in EXERCISES.values() if e.kind == "checker"], ids=lambda e: e.id
)
def test_a_checker_tab_s_last_hint_is_its_formula_rung_and_its_words_below_say_none(exercise):
    assert tells(exercise.hints[-1], exercise.ops)
    for text in (exercise.prompt, *exercise.hints[:-1]):
        assert tells(text, exercise.ops) == [], text
    for name, said in golden(exercise).items():
        if not name.endswith(FORMULA_RUNG):
            assert tells(said, exercise.ops) == [], name
