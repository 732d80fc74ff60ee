"""course.quiz: a ```quiz fence's TOML becomes a form; mistakes in it are named."""

import textwrap

import markdown
import pytest

from course import quiz

CHOICE = """\
id = "pick"
question = "Which is **right**?"
[[option]]
text = "`this`"
why = "Yes, because."
correct = true
[[option]]
text = "that"
why = "No, because."
"""

NUMBER = """\
id = "count"
question = "How many?"
answer = 3
tolerance = 0.25
unit = "× <more>"
hint = "Count them."
why = "Three."
"""


def to_html(text):
    return markdown.markdown(textwrap.dedent(text))


def test_multiple_choice_renders_a_radio_per_option_with_its_explanation():
    html = quiz.render(quiz.parse(CHOICE), to_html)
    assert html.startswith('<form class="mg-quiz" data-quiz="pick" data-kind="choice"')
    assert "<legend" in html and "Which is <strong>right</strong>?" in html
    assert html.count('type="radio" name="quiz-pick"') == 2
    assert html.count("data-correct") == 1
    assert "<span><code>this</code></span>" in html  # inline Markdown, no <p>
    assert html.count('<div class="mg-quiz__why" hidden><p>') == 2
    assert 'role="status" aria-live="polite"' in html


def test_number_quiz_carries_answer_tolerance_hint_and_why():
    html = quiz.render(quiz.parse(NUMBER), to_html)
    assert 'data-kind="number" data-answer="3" data-tolerance="0.25"' in html
    assert '<label class="mg-quiz__question" for="quiz-count-input">' in html
    assert 'id="quiz-count-input"' in html
    assert "× &lt;more&gt;" in html  # the unit is text, not HTML
    assert '<div class="mg-quiz__hint" hidden>' in html and "Count them." in html
    assert '<div class="mg-quiz__why" hidden><p>Three.</p></div>' in html


def test_the_check_button_waits_for_the_script():
    """Without JavaScript nothing offers to check an answer."""
    assert '<button type="submit" class="md-button" hidden>' in quiz.render(
        quiz.parse(NUMBER), to_html
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("id = ", "not valid TOML"),
        ('id = "Bad Id"\nquestion = "q"\nanswer = 1\ntolerance = 0', "needs an `id`"),
        ('id = "q"\nanswer = 1\ntolerance = 0', "`question` is missing"),
        ('id = "q"\nquestion = "q"', "either"),
        (CHOICE.replace("correct = true", ""), "exactly one option"),
        (CHOICE + "correct = true\n", "exactly one option"),
        (CHOICE.replace('why = "No, because."', ""), "option 2 has no why"),
        (NUMBER.replace("tolerance = 0.25", 'tolerance = "a bit"'), "`tolerance` must be"),
        (NUMBER.replace('hint = "Count them."', ""), "`hint` is missing"),
    ],
)
def test_mistakes_are_named(text, message):
    with pytest.raises(quiz.QuizError, match=message):
        quiz.parse(text)


def test_the_version_changes_with_the_content():
    """Saved answers are kept only for the same quiz: any edit gives a new version."""
    first = quiz.parse(CHOICE)
    edited = quiz.parse(CHOICE.replace("No, because.", "No, since."))
    assert quiz.version(first) == quiz.version(quiz.parse(CHOICE))
    assert quiz.version(first) != quiz.version(edited)
    assert f'data-version="{quiz.version(first)}"' in quiz.render(first, to_html)
