"""The course's map in the record pages (course/record.py): pages in the nav's order, each
exercise on the first page that shows its tab, and the map written once into an empty
template."""

import json

from course import record

NAV = [{"Start": "index.md"}, {"Ops": "ops.md"}, {"More": [{"Graphs": "graphs.md"}]}]


def tab(name):
    return {"id": name, "label": f"<{name}>", "kind": "op", "design": "closures"} | {
        "ops": [name],
        "stubs": {name: "pass"},
        "version": "v1",
        "prompt": "<p>not kept</p>",
    }


def test_pages_come_in_the_nav_s_order_each_exercise_once():
    shown = {
        "graphs/index.html": ("Graphs", [tab("add"), tab("diamond")]),
        "extra/index.html": ("Extra", [tab("log")]),
        "ops/index.html": ("Ops", [tab("add"), tab("mul")]),
    }
    found = record.course_map(shown, NAV, 5)
    assert [(page["url"], [e["id"] for e in page["exercises"]]) for page in found["pages"]] == [
        ("ops/", ["add", "mul"]),
        ("graphs/", ["diamond"]),
        ("extra/", ["log"]),  # not in the nav: after it
    ]
    assert found["time_limit"] == 5 and "prompt" not in found["pages"][0]["exercises"][0]


def test_the_map_fills_an_empty_template_once_and_the_title_is_the_heading_s_text():
    heading = '<h1 id=x>Write <code>the</code> closures<a class="headerlink" href=#x>¶</a></h1>'
    page = heading + record.EMPTY_MAP
    assert record.page_title(page) == "Write the closures"
    filled = record.fill_map(page, {"pages": [{"title": "<a & b>"}]})
    carried = filled.split("<template data-course-map>")[1].split("</template>")[0]
    assert json.loads(carried) == {"pages": [{"title": "<a & b>"}]} and "<a" not in carried
    assert record.fill_map(filled, {"pages": []}) == filled
