"""An op tab's helpers: hints one at a time, the solution only after a real attempt and every
hint, the full
Value class with the learner's body in its slot, assembled as the grader assembles it, the
names the code can use, and the reference beside the learner's code once it passes."""

from playwright.sync_api import expect

from grader.scaffold import indent_body


def test_solution_is_offered_only_after_a_real_attempt_and_every_hint(new_visitor, exercises):
    learner, _ = new_visitor(viewport={"width": 1000, "height": 700})
    show = learner.panel.get_by_role("button", name="Show solution")
    expect(show).to_be_hidden()
    learner.run()  # the untouched starter code is no attempt
    expect(show).to_be_hidden()
    learner.write("self.grad += 2 * out.grad")
    assert learner.run() == "fail"
    expect(show).to_be_hidden()  # the hints come first, the last rung after them
    count = len(exercises["add"].hints)
    for shown in range(1, count + 1):
        learner.panel.get_by_role("button", name=f"Show hint {shown} of {count}").click()
        if shown < count:
            expect(show).to_be_hidden()
    show.click()
    solution = exercises["add"].solutions["add"].strip().splitlines()
    expect(learner.panel.locator(".mg-solution .cm-line")).to_have_text(solution)
    expect(learner.panel.get_by_role("button", name="Hide solution")).to_be_visible()
    caption = learner.panel.locator(".mg-solution .mg-code__caption")
    expect(caption).to_be_focused()
    expect(caption).to_be_in_viewport()


def test_the_names_the_code_can_use_are_shown_above_the_editor(new_visitor):
    learner, _ = new_visitor()
    learner.open_tab("tanh")
    names = learner.panel.locator(".mg-code__scope code").all_inner_texts()
    assert names == ["self", "x", "t", "out", "math"]


def test_after_a_pass_the_reference_is_shown_beside_the_learner_s_code(new_visitor, exercises):
    learner, _ = new_visitor()
    compare = learner.panel.get_by_role("button", name="Compare with the reference")
    expect(compare).to_be_hidden()
    mine = "self.grad += out.grad  # mine\nother.grad += out.grad"
    assert learner.solve("__add__", mine) == "pass"
    compare.click()
    figures = learner.panel.locator(".mg-compare figure")
    expect(figures.nth(0)).to_contain_text("# mine")
    expect(figures.nth(1)).to_contain_text(exercises["add"].solutions["add"].splitlines()[0])


def test_hints_are_revealed_one_at_a_time(new_visitor, exercises):
    learner, _ = new_visitor()
    hints = exercises["add"].hints
    items = learner.panel.locator(".mg-hints__list li")
    for shown in range(1, len(hints) + 1):
        learner.panel.get_by_role("button", name=f"Show hint {shown} of {len(hints)}").click()
        expect(items).to_have_count(shown)
    expect(learner.panel.get_by_role("button", name="Show hint")).to_have_count(0)


def test_full_value_class_shows_the_current_body_in_its_marked_slot(new_visitor):
    """The class as the tab's test runs it: this tab's code, marked, and where the other ops'
    code goes, the course's own runs (not another tab's code, which this test does not run)."""
    # CodeMirror draws only the lines on screen: a tall window shows the whole class
    learner, _ = new_visitor(viewport={"width": 1000, "height": 5000})
    learner.open_tab("__add__")
    learner.write("self.grad += out.grad  # my add, which the __mul__ test does not run\n")
    learner.open_tab("__mul__")
    body = "self.grad += other.data * out.grad  # mine\nother.grad += self.data * out.grad\n"
    learner.write(body)
    learner.panel.get_by_role("button", name="Show full Value class").click()
    marked = learner.panel.locator(".mg-fullclass .mg-line-slot")
    expect(marked).to_have_count(len(indent_body(body).splitlines()))
    assert marked.all_inner_texts() == indent_body(body).splitlines()
    shown = learner.panel.locator(".mg-fullclass")
    expect(shown).to_contain_text("...  # __add__: this test runs the course's own code here")
    expect(shown).not_to_contain_text("my add")
    # it follows the editor while open
    learner.write("pass\n")
    expect(marked).to_have_count(1)
    assert marked.all_inner_texts() == indent_body("pass\n").splitlines()


def test_a_failed_verdict_offers_the_next_hint_under_it(new_visitor, exercises):
    learner, _ = new_visitor()
    learner.write("self.grad += 2 * out.grad")
    assert learner.run() == "fail"
    offer = learner.panel.locator(".mg-verdict + .mg-next-hint")
    offer.get_by_role("button", name="Show the next hint").click()
    first = learner.panel.locator(".mg-hints__list li").first
    expect(first).to_be_focused()
    expect(offer).to_have_count(0)
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    expect(learner.panel.locator(".mg-next-hint")).to_have_count(0)
