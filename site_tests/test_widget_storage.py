"""The learner's code and ✓ survive a reload; a changed exercise keeps their code and says so;
without storage, with storage full or holding a damaged entry, the widget still works, says
what it cannot save or read, and keeps the code in the editor."""

from learner import Learner
from playwright.sync_api import expect

# as a browser that blocks site data; an Error rather than a DOMException, for its stack
NO_STORAGE = """
Object.defineProperty(window, "localStorage", {
  get() { throw Object.assign(new Error("The user denied storage"), { name: "SecurityError" }); },
});
"""


def test_reload_keeps_code_and_check_mark(new_visitor, exercises):
    learner, _ = new_visitor()
    solution = exercises["mul"].solutions["mul"]
    assert learner.solve("__mul__", solution) == "pass"
    learner.open_tab("__add__")
    learner.write("# started on add\n")
    learner.reload()
    assert learner.passed_mark_visible("__mul__")
    assert not learner.passed_mark_visible("__add__")
    assert learner.code() == "# started on add"
    learner.open_tab("__mul__")
    assert learner.code() == solution.rstrip("\n")
    # an attempt was made and every hint shown before the reload: the solution may be shown
    expect(learner.panel.get_by_role("button", name="Show solution")).to_be_hidden()
    hints = len(exercises["mul"].hints)
    for shown in range(1, hints + 1):
        learner.panel.get_by_role("button", name=f"Show hint {shown} of {hints}").click()
    learner.reload()
    learner.open_tab("__mul__")
    expect(learner.panel.locator(".mg-hints__list li")).to_have_count(hints)
    expect(learner.panel.get_by_role("button", name="Show solution")).to_be_visible()


def test_a_changed_exercise_keeps_the_code_and_tells_the_learner(new_visitor):
    learner, _ = new_visitor()
    learner.write("self.grad += 1  # mine\n")
    learner.page.evaluate(
        """() => {
          for (const key of Object.keys(localStorage).filter((k) => k.endsWith(":code:add"))) {
            localStorage.setItem(key, JSON.stringify({...JSON.parse(localStorage.getItem(key)),
                                                       version: "an-older-version"}));
          }
        }"""
    )
    learner.reload()
    assert learner.code() == "self.grad += 1  # mine"
    expect(learner.panel.get_by_text("This exercise has changed")).to_be_visible()


def test_without_storage_the_widget_works_and_says_work_is_not_saved(new_visitor, exercises):
    learner, watch = new_visitor()
    learner.page.add_init_script(NO_STORAGE)
    learner.reload()
    expect(learner.widget.get_by_text("your code will be lost when you leave")).to_be_visible()
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    # mkdocs-material's own `__md_get` throws when storage is denied; nothing else may
    watch.errors[:] = [error for error in watch.errors if "at __md_get " not in error]


def test_reset_returns_to_the_stub_and_can_be_undone(new_visitor, exercises):
    learner, _ = new_visitor()
    stub = exercises["add"].stubs["add"]
    learner.write("self.grad += out.grad\n")
    learner.panel.get_by_role("button", name="Reset").click()
    assert learner.code() == stub.rstrip("\n")
    learner.panel.get_by_role("button", name="Undo").click()
    assert learner.code() == "self.grad += out.grad"


# as a browser whose storage for the site is full, from the moment the page sets `storageFull`
QUOTA = """
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (window.storageFull) throw new DOMException("The quota is exceeded.", "QuotaExceededError");
  return setItem.call(this, key, value);
};
"""
FULL_NOTE = "storage for this site is full, so your latest changes are not being saved"


def saved(learner, what):
    """The saved entry `what` ("code:mul"), parsed, or None."""
    return learner.page.evaluate(
        """(what) => {
          const key = Object.keys(localStorage).find((k) => k.endsWith(what));
          return key ? JSON.parse(localStorage.getItem(key)) : null;
        }""",
        f":{what}",
    )


def test_when_storage_fills_up_the_widget_says_so_and_keeps_the_code(new_visitor, exercises):
    learner, _ = new_visitor()
    learner.page.add_init_script(QUOTA)
    learner.reload()
    learner.open_tab("__mul__")
    learner.write("self.grad += 1.0  # saved\n")
    learner.page.evaluate("window.storageFull = true")
    learner.write("self.grad += 2.0  # not saved\n")
    expect(learner.widget.get_by_text(FULL_NOTE)).to_be_visible()
    learner.open_tab("__add__")
    learner.open_tab("__mul__")
    assert learner.code() == "self.grad += 2.0  # not saved"
    assert saved(learner, "code:mul")["text"] == "self.grad += 1.0  # saved\n"
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    # space again: the next save works and the note goes
    learner.page.evaluate("window.storageFull = false")
    learner.open_tab("__mul__")
    learner.write("self.grad += 3.0  # saved again\n")
    expect(learner.widget.get_by_text(FULL_NOTE)).to_be_hidden()
    assert saved(learner, "code:mul")["text"] == "self.grad += 3.0  # saved again\n"


def test_storage_full_from_the_start_is_said_not_taken_for_disabled(new_visitor):
    learner, _ = new_visitor()
    learner.page.add_init_script("window.storageFull = true;" + QUOTA)
    learner.reload()
    expect(learner.widget.get_by_text(FULL_NOTE)).to_be_visible()
    learner.write("self.grad += out.grad\n")
    learner.open_tab("__mul__")
    learner.open_tab("__add__")
    assert learner.code() == "self.grad += out.grad"


def test_a_damaged_saved_entry_is_said_and_the_widget_works(new_visitor, exercises):
    learner, _ = new_visitor()
    learner.open_tab("__mul__")
    learner.write("self.grad += 1.0\n")
    learner.page.evaluate(
        """() => {
          const code = Object.keys(localStorage).find((k) => k.endsWith(":code:mul"));
          localStorage.setItem(code, "{not json");
          localStorage.setItem(code.replace(":code:", ":progress:"), "[1, 2");
        }"""
    )
    learner.reload()
    learner.open_tab("__mul__")
    damaged = learner.panel.get_by_text("Your saved code for this tab could not be read")
    expect(damaged).to_be_visible()
    assert learner.code() == exercises["mul"].stubs["mul"].rstrip("\n")
    assert learner.solve("__mul__", exercises["mul"].solutions["mul"]) == "pass"
    assert saved(learner, "code:mul")["text"] == exercises["mul"].solutions["mul"]
    assert saved(learner, "progress:mul")["passedWith"] == exercises["mul"].solutions["mul"]
    expect(damaged).to_be_hidden()


def test_a_second_browser_tab_shows_what_the_first_saves_and_never_writes_over_it(
    new_visitor, exercises
):
    """Two tabs of one browser share the saved work: an edit in one is in the other's editor at
    once (said), a tab not opened yet there opens with it, and a pass there shows its ✓ here;
    the other tab's next edit starts from it, so nothing is lost (last write wins no more)."""
    first, _ = new_visitor()
    second = Learner(first.page.context.new_page(), first.url).open()
    second.open_tab("__mul__")
    first.open_tab("__mul__")
    first.write("self.grad += 2  # from the first tab\n")
    expect(second.editor).to_have_text("self.grad += 2  # from the first tab")
    expect(second.widget.get_by_text("was changed in another browser tab")).to_contain_text(
        "__mul__"
    )
    first.open_tab("__pow__")
    first.write("# pow, in the first tab\n")
    second.open_tab("__pow__")  # its editor is made now, from what is saved now
    expect(second.editor).to_have_text("# pow, in the first tab")
    second.open_tab("__mul__")
    second.editor.press("End")
    second.page.keyboard.type(" and the second")
    first.open_tab("__mul__")
    expect(first.editor).to_have_text("self.grad += 2  # from the first tab and the second")
    assert first.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    expect(second.tab("__add__").get_by_text("✓")).to_be_visible()
    second.page.close()


def test_a_reload_opens_the_tab_the_learner_was_on(new_visitor):
    learner, _ = new_visitor()
    learner.open_tab("exp")
    learner.reload()
    expect(learner.tab("exp")).to_have_attribute("aria-selected", "true")
    expect(learner.editor).to_be_visible()
