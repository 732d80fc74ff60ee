"""The site ships a Content-Security-Policy (course/csp.py) and every site test runs under it:
here, every page loads without a single violation, and the policy does refuse what it should
(an inline script it does not list)."""

from conftest import SITE

VIOLATIONS = """
window.violations = [];
addEventListener("securitypolicyviolation", (event) =>
  window.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
"""


def pages():
    return sorted(
        path.parent.relative_to(SITE).as_posix().strip(".") + "/"
        for path in SITE.glob("**/index.html")
        if "search" not in path.parts
    )


def test_every_page_runs_under_the_policy_without_a_violation(new_visitor):
    """(Every other site test runs under it too: a violation is a console error there.)"""
    learner, _ = new_visitor()
    page = learner.page
    page.add_init_script(VIOLATIONS)
    site_url = learner.url[: learner.url.index("/", len("http://")) + 1]
    for path in pages():
        page.goto(site_url + path)
        page.wait_for_load_state("load")
        policy = page.locator('meta[http-equiv="Content-Security-Policy"]')
        assert "script-src 'self'" in policy.get_attribute("content"), path
        assert page.evaluate("window.violations") == [], path


def test_the_policy_refuses_an_inline_script_it_does_not_list(new_visitor):
    learner, watch = new_visitor()
    page = learner.page
    page.add_init_script(VIOLATIONS)
    learner.reload()
    page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.injected = true";
        document.body.append(script);
    }""")
    assert page.evaluate("window.injected") is None
    page.wait_for_function("window.violations.length > 0")
    assert [v.split(" ")[0] for v in page.evaluate("window.violations")] == ["script-src-elem"]
    # the browser logs the refusal as an error: this test's doing
    refused = [error for error in watch.errors if "Content Security Policy" in error]
    assert len(refused) == 1
    watch.errors[:] = [error for error in watch.errors if error not in refused]
