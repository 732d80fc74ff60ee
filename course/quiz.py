"""Quizzes, written in a page as a ```` ```quiz ```` fence holding TOML, rendered to a form.

Multiple choice:

    id = "plus-equals"                  # unique on the site: names the saved state
    question = "Markdown"
    [[option]]
    text = "Markdown"
    why = "Markdown: why this option is right or wrong"
    correct = true                      # exactly one option

A number:

    id = "zero-grad"
    question = "Markdown"
    answer = 3
    tolerance = 0.25                    # accepted: |given - answer| <= tolerance
    unit = "× the right gradient"       # optional, shown after the input
    hint = "Markdown, shown after a wrong answer"
    why = "Markdown, shown after a right one"
    check = "ratio"                     # optional: the docs test evaluates this expression
                                        # after running the page and compares it to `answer`

The form works without JavaScript as plain text; `widget/src/lessons/quiz.js` makes it answerable.
"""

import hashlib
import html
import json
import re
import tomllib

from .escapes import lost_escape_in

ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class QuizError(ValueError):
    """A malformed quiz; the message says what to fix."""


def parse(text):
    """The quiz in `text` (TOML), checked: a dict with `kind` set to "choice" or "number"."""
    try:
        quiz = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise QuizError(f"the quiz is not valid TOML: {error}") from error
    if not ID.match(str(quiz.get("id", ""))):
        raise QuizError("the quiz needs an `id` of lowercase letters, digits and dashes")
    if not isinstance(quiz.get("question"), str):
        raise QuizError(f"quiz {quiz['id']}: `question` is missing")
    if ("option" in quiz) == ("answer" in quiz):
        raise QuizError(f"quiz {quiz['id']}: give either [[option]] tables or an `answer`")
    kind = "choice" if "option" in quiz else "number"
    if kind == "choice":
        _check_options(quiz)
    else:
        _check_number(quiz)
    _check_escapes(quiz)
    return {**quiz, "kind": kind}


def _check_options(quiz):
    options = quiz["option"]
    for i, option in enumerate(options, 1):
        missing = [key for key in ("text", "why") if not isinstance(option.get(key), str)]
        if missing:
            raise QuizError(f"quiz {quiz['id']}: option {i} has no {' or '.join(missing)}")
    if sum(option.get("correct") is True for option in options) != 1:
        raise QuizError(f"quiz {quiz['id']}: exactly one option must have `correct = true`")


def _check_escapes(quiz):
    """No string of the quiz lost a backslash to TOML (course/escapes.py)."""
    texts = [(key, value) for key, value in quiz.items() if key != "option"]
    for i, option in enumerate(quiz.get("option", []), 1):
        texts += [(f"option {i}'s {key}", value) for key, value in option.items()]
    for key, value in texts:
        problem = isinstance(value, str) and lost_escape_in(value)
        if problem:
            raise QuizError(f"quiz {quiz['id']}: `{key}`: {problem}")


def _check_number(quiz):
    for key in ("answer", "tolerance"):
        if not isinstance(quiz.get(key), (int, float)) or isinstance(quiz.get(key), bool):
            raise QuizError(f"quiz {quiz['id']}: `{key}` must be a number")
    for key in ("hint", "why"):
        if not isinstance(quiz.get(key), str):
            raise QuizError(f"quiz {quiz['id']}: `{key}` is missing")


def inline(to_html, text):
    """Markdown rendered without its enclosing paragraph, for a legend, label or option."""
    rendered = to_html(text).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        return rendered[3:-4]
    return rendered


def render(quiz, to_html):
    """The HTML of a parsed quiz; `to_html` renders Markdown as the site does."""
    if quiz["kind"] == "choice":
        return _choice(quiz, to_html)
    return _number(quiz, to_html)


def _choice(quiz, to_html):
    options = []
    for i, option in enumerate(quiz["option"]):
        correct = " data-correct" if option.get("correct") else ""
        options.append(
            f'<li class="mg-quiz__option"><label><input type="radio" name="quiz-{quiz["id"]}"'
            f' value="{i}"{correct}> <span>{inline(to_html, option["text"])}</span></label>'
            f'<div class="mg-quiz__why" hidden>{to_html(option["why"])}</div></li>'
        )
    return _form(
        quiz,
        f'<fieldset><legend class="mg-quiz__question">{_question(quiz, to_html)}</legend>'
        f'<ul class="mg-quiz__options">{"".join(options)}</ul></fieldset>'
        f'<p class="mg-quiz__actions">{BUTTON}</p>{RESULT}',
    )


def _number(quiz, to_html):
    field = f"quiz-{quiz['id']}-input"
    unit = html.escape(quiz.get("unit", ""))
    hint = to_html(quiz["hint"]).replace("<p>", "<p><strong>Hint:</strong> ", 1)
    return _form(
        quiz,
        f'<label class="mg-quiz__question" for="{field}">{_question(quiz, to_html)}</label>'
        f'<p class="mg-quiz__answer"><input id="{field}" type="text" inputmode="decimal"'
        f' spellcheck="false"> <span class="mg-quiz__unit">{unit}</span> {BUTTON}</p>{RESULT}'
        f'<div class="mg-quiz__hint" hidden>{hint}</div>'
        f'<div class="mg-quiz__why" hidden>{to_html(quiz["why"])}</div>',
    )


def _question(quiz, to_html):
    return f'<span class="mg-quiz__kicker">Quiz</span> {inline(to_html, quiz["question"])}'


# the button stays hidden until widget/src/lessons/quiz.js makes the form answerable
BUTTON = '<button type="submit" class="md-button" hidden>Check answer</button>'
RESULT = '<p class="mg-quiz__result" role="status" aria-live="polite"></p>'


def _form(quiz, body):
    data = ""
    if quiz["kind"] == "number":
        data = f' data-answer="{quiz["answer"]}" data-tolerance="{quiz["tolerance"]}"'
    return (
        f'<form class="mg-quiz" data-quiz="{quiz["id"]}" data-kind="{quiz["kind"]}"{data}'
        f' data-version="{version(quiz)}" autocomplete="off">{body}</form>'
    )


def version(quiz):
    """A short hash of the quiz's content: saved answers to an older version are not restored."""
    canonical = json.dumps(quiz, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(canonical).hexdigest()[:12]
