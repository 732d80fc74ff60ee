"""The editor as a learner types in it (widget/src/editor/): Python's indentation, undo and
redo, comments, colours and matching brackets, Home, and the keyboard's way out."""

import pytest
from conftest import assert_clean, learner_at
from playwright.sync_api import expect


@pytest.fixture
def editor(learner):
    """The `__mul__` editor, emptied and focused."""
    learner.open_tab("__mul__")
    learner.editor.click()
    learner.page.keyboard.press("Control+a")
    learner.page.keyboard.press("Delete")
    assert learner.code() == ""
    return learner


def typed(learner, text):
    learner.page.keyboard.type(text)  # "\n" presses Enter
    return learner.code()


def test_enter_indents_after_a_colon_and_leaves_the_block_after_return(editor):
    code = typed(editor, "if out.grad:\nself.grad += 1\n")
    assert code == "if out.grad:\n    self.grad += 1\n    "
    assert typed(editor, "return\nx = 1").endswith("    return\nx = 1")


def test_typing_the_colon_of_else_takes_the_line_out_one_level(editor):
    code = typed(editor, "if out.grad:\nself.grad += 1\nelse:\npass")
    assert code == "if out.grad:\n    self.grad += 1\nelse:\n    pass"


def test_the_dedent_of_else_looks_past_empty_lines(editor):
    typed(editor, "if a:\nif b:\nx = 1\n")
    keys = editor.page.keyboard
    keys.press("Backspace")
    keys.press("Backspace")  # an empty line
    keys.press("Enter")
    keys.press("Tab")
    keys.press("Tab")
    typed(editor, "else:")
    lines = editor.editor.locator(".cm-line").all_inner_texts()
    assert len(lines) == 5 and lines[3].strip() == ""
    assert lines[4] == "    else:"  # one level out from `x = 1`, not back to the start


def test_tab_and_shift_tab_indent_and_backspace_deletes_an_indent_level(editor):
    typed(editor, "x = 1")
    keys = editor.page.keyboard
    keys.press("Tab")
    assert editor.code() == "    x = 1"
    keys.press("Shift+Tab")
    assert editor.code() == "x = 1"
    typed(editor, "\nif x:\n")
    keys.press("Backspace")
    assert editor.code() == "x = 1\nif x:"
    expect(editor.editor.locator(".cm-line")).to_have_text(["x = 1", "if x:", ""])


def test_undo_takes_back_a_run_of_typing_at_once_and_redo_brings_it_back(editor):
    editor.page.wait_for_timeout(700)  # apart from the fixture's emptying of the editor
    typed(editor, "a = 1")
    editor.page.wait_for_timeout(700)  # a pause ends a run of typing (CodeMirror: 500 ms)
    typed(editor, "\nb = 2")
    keys = editor.page.keyboard
    lines = editor.editor.locator(".cm-line")
    keys.press("Control+z")  # the line break and "b = 2", typed in one run
    expect(lines).to_have_text(["a = 1"])
    keys.press("Control+z")  # "a = 1"
    expect(lines).to_have_text([""])
    keys.press("Control+y")
    expect(lines).to_have_text(["a = 1"])
    keys.press("Control+Shift+Z")  # what a keyboard sends: Shift makes the key "Z"
    expect(lines).to_have_text(["a = 1", "b = 2"])


def test_enter_in_an_open_bracket_lines_up_and_home_goes_to_the_code_first(editor):
    assert typed(editor, "self.grad += (1 -\nt)") == "self.grad += (1 -\n              t)"
    keys = editor.page.keyboard
    keys.press("Home")
    typed(editor, "#")
    assert editor.code().endswith("\n              #t)")
    keys.press("Home")
    keys.press("Home")  # again: the start of the line
    typed(editor, "!")
    assert editor.code().endswith("\n!              #t)")


def test_ctrl_m_makes_tab_leave_the_editor_and_back(editor):
    keys = editor.page.keyboard
    keys.press("Control+m")
    keys.press("Tab")
    assert editor.code() == ""  # nothing indented: the focus moved on
    expect(editor.editor).not_to_be_focused()
    editor.editor.click()
    keys.press("Control+m")
    keys.press("Tab")
    assert editor.code() == "    "


def test_ctrl_slash_comments_the_selected_lines_out_and_in(editor):
    editor.write("a = 1\n    b = 2")
    keys = editor.page.keyboard
    keys.press("Control+a")
    keys.press("Control+/")
    assert editor.code() == "# a = 1\n#     b = 2"
    keys.press("Control+/")
    assert editor.code() == "a = 1\n    b = 2"


def test_code_is_coloured_by_kind(editor):
    editor.write("return None  # done\nself.grad += 2.0 * 'x'")
    content = editor.editor
    for kind, text in [
        ("keyword", "return"),
        ("atom", "None"),
        ("comment", "# done"),
        ("number", "2.0"),
        ("string", "'x'"),
        ("propertyName", "grad"),
    ]:
        expect(content.locator(f".tok-{kind}")).to_have_text(text)
    expect(content.locator(".tok-operator")).to_have_text(["+=", "*"])


def test_the_bracket_beside_the_cursor_and_its_partner_are_marked(editor):
    editor.write("y = (1 + (2))")
    keys = editor.page.keyboard
    keys.press("End")  # after the last ")": it and the first "(" match
    matched = editor.editor.locator(".cm-matchingBracket")
    expect(matched).to_have_count(2)
    expect(matched.first).to_have_text("(")
    typed(editor, ")")
    expect(editor.editor.locator(".cm-nonmatchingBracket")).to_have_count(1)


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ANSWER = "other.grad += self.data * out.grad  # and self.grad as well."  # 60 characters
# the editor's lines as laid out: each inside the editor's box or not, where each of its rows
# starts, and where its code starts (its first character after the indentation)
GEOMETRY = """(editor) => {
  const box = editor.getBoundingClientRect();
  const lines = [...editor.querySelectorAll(".cm-line")].map((line) => {
    const range = document.createRange();
    range.selectNodeContents(line);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const rows = []; // [top, left] of each row: a rect well below the last row's top starts one
    for (const r of [...rects].sort((a, b) => a.top - b.top)) {
      const row = rows.at(-1);
      if (row && r.top < row[0] + r.height / 2) row[1] = Math.min(row[1], r.left);
      else rows.push([r.top, r.left]);
    }
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let code = null;
    for (let node = walker.nextNode(); node && code === null; node = walker.nextNode()) {
      const at = node.textContent.search(/\\S/);
      if (at < 0) continue;
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      code = range.getBoundingClientRect().left;
    }
    return {
      text: line.textContent,
      inside: rects.every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5),
      starts: rows.map((row) => Math.round(row[1])),
      code: Math.round(code),
    };
  });
  const scroller = editor.closest(".cm-scroller");
  return {lines, sideways: scroller.scrollWidth > scroller.clientWidth};
}"""


def test_on_a_phone_a_long_answer_line_wraps_under_its_indentation(
    browser, site, widget_page, tmp_path
):
    """At 390 px an answer line of 60 characters, typed inside an `if`, is seen whole as it is
    typed: it wraps (CodeMirror's line wrapping), nothing scrolls sideways, and its wrapped part
    starts under the line's first character, right of the indentation (editor.js `--indent`)."""
    assert len(ANSWER) == 60
    learner, watch, close = learner_at(browser, site.url + widget_page.lstrip("/"), **PHONE)
    learner.open()
    learner.open_tab("__mul__")
    learner.editor.tap()
    keys = learner.page.keyboard
    keys.press("Control+a")
    keys.type("if out.grad:\n" + ANSWER)
    assert learner.code() == "if out.grad:\n    " + ANSWER
    learner.page.screenshot(path=tmp_path / "editor-390.png")  # looked at: see the report
    found = learner.editor.evaluate(GEOMETRY)
    assert not found["sideways"]
    [line] = [line for line in found["lines"] if ANSWER in line["text"]]
    assert line["inside"] and len(line["starts"]) >= 2, line  # whole, on more than one row
    [top] = [row for row in found["lines"] if row["text"] == "if out.grad:"]
    # its first row starts at the indentation, as the `if` does; the rows after, at its code
    assert line["starts"][0] == top["starts"][0] < line["code"], (line, top)
    assert set(line["starts"][1:]) == {line["code"]}, line
    close()
    assert_clean(watch)
