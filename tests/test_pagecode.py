"""course.pagecode: how a lesson page's blocks, markers and claims are read and run."""

import textwrap

import pytest

from course import pagecode
from runner.claims import claim_holds


def parse(text):
    return pagecode.parse(textwrap.dedent(text))


def run(text):
    """What each Python block of `text` shows, in order."""
    return [ran.shown() for _, _, ran in pagecode.run(parse(text)) if ran is not None]


def test_blocks_are_read_in_order_with_their_lines():
    """Python, output, graph and quiz fences are items; other fences are skipped whole."""
    items = parse("""\
        Text.

        ```python
        x = 1
        ```

        ```output
        1
        ```

        ```text
        **9**{ data-check="x" } inside a text fence is not a claim
        ```

        ```graph
        x
        ```
        """)
    assert [(item.kind, item.line, item.end) for item in items] == [
        ("python", 3, 5),
        ("output", 7, 9),
        ("graph", 15, 17),
    ]
    assert items[0].body == "x = 1"


def test_indented_fences_are_dedented():
    """A block inside an admonition runs as if written at the margin."""
    items = parse("""\
        !!! note
            ```python
            if True:
                y = 2
            ```
        """)
    assert items[0].body == "if True:\n    y = 2"


def test_blocks_share_one_namespace_per_page():
    assert run("""\
        ```python
        x = 20
        ```

        ```python
        print(x + 1)
        ```
        """) == ["", "21\n"]


def test_a_marked_block_records_its_error_after_its_printout():
    """The shown output of a broken block ends with the traceback's last line."""
    items = parse("""\
        <!-- raises ZeroDivisionError -->
        ```python
        print("before")
        1 / 0
        ```
        """)
    assert items[0].raises == "ZeroDivisionError"
    assert run("""\
        ```python
        print("before")
        1 / 0
        ```
        """) == ["before\nZeroDivisionError: division by zero\n"]


def test_an_unclosed_fence_is_reported():
    with pytest.raises(ValueError, match="never closed"):
        parse("```python\nx = 1\n")


def test_claims_are_found_on_strong_text_and_code_spans():
    items = parse("""\
        So **L = −8**{ data-check="L.data" } and `o ≈ 0.7071`{ data-check="o" }.
        """)
    assert [(item.kind, item.body, item.expr) for item in items] == [
        ("claim", "L = −8", "L.data"),
        ("claim", "o ≈ 0.7071", "o"),
    ]


@pytest.mark.parametrize(
    "text, value, holds",
    [
        ("L = −8", -8.0, True),
        ("L = −8", -8.00000001, True),  # seven decimals
        ("L = −8", -8.000001, False),
        ("o ≈ 0.7071", 0.7071067811865476, True),  # rounded as shown
        ("o ≈ 0.7071", 0.7072, False),
        ("x.grad = 3", 6.0, False),
        ("3, not 6", 3.0, False),  # the last number is the claim
    ],
)
def test_a_claim_holds_only_for_the_number_it_shows(text, value, holds):
    assert claim_holds(text, value) is holds


def test_a_claim_without_a_number_is_an_error():
    with pytest.raises(ValueError, match="holds no number"):
        claim_holds("minus eight", -8.0)


@pytest.mark.parametrize(
    ("fence", "meant"),
    [("exercize", "exercise"), ("Quiz", "quiz"), ("pyhton", "python"), ("outptu", "output")],
)
def test_a_misspelt_fence_is_refused_naming_the_one_meant(fence, meant):
    """```exercize would show as a code block (and ```pyhton would never run): a slip."""
    with pytest.raises(
        ValueError,
        match=rf"^line 3: ```{fence} is no fence the course knows, .*"
        rf"did you mean ```{meant}\?",
    ):
        parse(f"Text.\n\n```{fence}\nadd\n```\n")


@pytest.mark.parametrize("fence", ["text", "toml", "graphviz", "python3", "console", "txt", ""])
def test_code_blocks_in_a_language_or_none_are_no_slip(fence):
    assert parse(f"```{fence}\nx\n```\n") == []
