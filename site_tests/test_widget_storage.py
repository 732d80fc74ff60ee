"""The learner's code and ✓ survive a reload; a changed exercise keeps their code and says so;
without storage the widget still works and says their work will not be saved."""

from playwright.sync_api import expect

# as a browser that blocks site data; an Error rather than a DOMException, for its stack
NO_STORAGE = """
Object.defineProperty(window, "localStorage", {
  get() { throw Object.assign(new Error("The user denied storage"), { name: "SecurityError" }); },
});
"""


def test_reload_keeps_code_and_check_mark(visit, exercises):
    learner, _ = visit()
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
    # a first attempt was made before the reload, so the solution may be shown
    expect(learner.panel.get_by_role("button", name="Show solution")).to_be_visible()


def test_a_changed_exercise_keeps_the_code_and_tells_the_learner(visit):
    learner, _ = visit()
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


def test_without_storage_the_widget_works_and_says_work_is_not_saved(visit, exercises):
    learner, watch = visit()
    learner.page.add_init_script(NO_STORAGE)
    learner.reload()
    expect(learner.widget.get_by_text("your code will be lost when you leave")).to_be_visible()
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    # mkdocs-material's own `__md_get` throws when storage is denied; nothing else may
    watch.errors[:] = [error for error in watch.errors if "at __md_get " not in error]


def test_reset_returns_to_the_stub_and_can_be_undone(visit, exercises):
    learner, _ = visit()
    stub = exercises["add"].stubs["add"]
    learner.write("self.grad += out.grad\n")
    learner.panel.get_by_role("button", name="Reset").click()
    assert learner.code() == stub.rstrip("\n")
    learner.panel.get_by_role("button", name="Undo").click()
    assert learner.code() == "self.grad += out.grad"
