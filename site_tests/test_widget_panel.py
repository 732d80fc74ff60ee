"""An op tab's helpers: the solution only after a first attempt, hints one at a time, and the
full Value class with the learner's body in its slot, assembled as the grader assembles it."""

from playwright.sync_api import expect

from grader.scaffold import indent_body


def test_solution_is_offered_only_after_a_first_attempt(visit, exercises):
    learner, _ = visit()
    show = learner.panel.get_by_role("button", name="Show solution")
    expect(show).to_be_hidden()
    learner.run()
    show.click()
    solution = exercises["add"].solutions["add"].strip().splitlines()
    expect(learner.panel.locator(".mg-solution .cm-line")).to_have_text(solution)
    expect(learner.panel.get_by_role("button", name="Hide solution")).to_be_visible()


def test_hints_are_revealed_one_at_a_time(visit, exercises):
    learner, _ = visit()
    hints = exercises["add"].hints
    items = learner.panel.locator(".mg-hints__list li")
    for shown in range(1, len(hints) + 1):
        learner.panel.get_by_role("button", name=f"Show hint {shown} of {len(hints)}").click()
        expect(items).to_have_count(shown)
    expect(learner.panel.get_by_role("button", name="Show hint")).to_have_count(0)


def test_full_value_class_shows_the_current_body_in_its_marked_slot(visit):
    # CodeMirror draws only the lines on screen: a tall window shows the whole class
    learner, _ = visit(viewport={"width": 1000, "height": 5000})
    learner.open_tab("__mul__")
    body = "self.grad += other.data * out.grad  # mine\nother.grad += self.data * out.grad\n"
    learner.write(body)
    learner.panel.get_by_role("button", name="Show full Value class").click()
    marked = learner.panel.locator(".mg-fullclass .mg-line-slot")
    expect(marked).to_have_count(len(indent_body(body).splitlines()))
    assert marked.all_inner_texts() == indent_body(body).splitlines()
    # it follows the editor while open
    learner.write("pass\n")
    expect(marked).to_have_count(1)
    assert marked.all_inner_texts() == indent_body("pass\n").splitlines()
