"""The Content-Security-Policy: every inline script a page runs is allowed by its hash, nothing
else inline is, and the <meta> tag comes before the first script."""

import base64
import hashlib

from course import csp

PAGE = """<!doctype html>
<html><head>
<meta charset="utf-8">
<script>var a = 1;</script>
<script id="__config" type="application/json">{"not": "run"}</script>
<script src="bundle.js"></script>
<script type="module">import "./x.js";</script>
</head><body><template><script>inert()</script></template></body></html>"""


def sha256(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def directives(policy):
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


def test_inline_scripts_are_the_javascript_ones_without_src():
    assert list(csp.inline_scripts(PAGE)) == ["var a = 1;", 'import "./x.js";', "inert()"]


def test_script_src_allows_the_site_and_each_inline_script_by_hash():
    script_src = directives(csp.policy(PAGE))["script-src"].split()
    assert script_src[:2] == ["'self'", "'wasm-unsafe-eval'"]  # Python's workers take this policy
    scripts = ["var a = 1;", 'import "./x.js";', "inert()"]
    assert set(script_src[2:]) == {sha256(script) for script in scripts}
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src


def test_nothing_is_fetched_from_another_origin():
    for name, value in directives(csp.policy(PAGE)).items():
        assert "http" not in value and "*" not in value, name
    assert directives(csp.policy(PAGE))["object-src"] == "'none'"


def test_the_meta_tag_comes_right_after_the_charset():
    html = csp.add_policy(PAGE)
    meta = html.index('<meta http-equiv="Content-Security-Policy"')
    assert html.index('<meta charset="utf-8">') < meta < html.index("<script")
    assert csp.add_policy("<p>no head</p>") == "<p>no head</p>"


def test_python_workers_take_the_page_policy_and_reach_only_the_site():
    """Workers made from blob: URLs inherit this policy: they may connect to the site only."""
    found = directives(csp.policy(PAGE))
    assert found["worker-src"] == "'self' blob:"
    assert found["connect-src"] == "'self'" and found["default-src"] == "'self'"
