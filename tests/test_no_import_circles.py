"""No module of the project's Python (grader/, runner/, course/, training/, microgpt/,
devtools/) imports itself through others, not even from inside a function or through another
package (course/imports.py reads every import with `ast`): each reads one way, from its entry
points down, and a circle is named with every module in it."""

import pytest

from course.imports import imports, package_modules

PACKAGES = ("grader", "runner", "course", "training", "microgpt", "devtools")


def circles(modules, imported):
    """The circles among `modules` (Tarjan's strongly connected components of more than one
    module, or one that imports itself), each sorted; `imported(name)` lists a module's."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(name):
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for other in imported(name):
            if other not in modules:
                continue
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            circle = []
            while not circle or circle[-1] != name:
                circle.append(stack.pop())
                on_stack.discard(circle[-1])
            if len(circle) > 1 or name in imported(name):
                found.append(sorted(circle))

    for name in sorted(modules):
        if name not in index:
            visit(name)
    return sorted(found)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_package_imports_in_a_circle(package):
    modules = package_modules(package)
    found = circles(modules, imports)
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_no_circle_runs_through_two_packages():
    modules = set().union(*(package_modules(package) for package in PACKAGES))
    found = circles(modules, imports)
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_a_circle_is_found_and_named():
    graph = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"], "e": ["e"]}
    assert circles(set(graph), graph.get) == [["a", "b", "c"], ["e"]]
    assert circles({"a", "b"}, {"a": ["b"], "b": []}.get) == []


def test_imports_inside_functions_count(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "__init__.py").write_text("")
    (tmp_path / "pack" / "one.py").write_text("def f():\n    from . import two\n")
    (tmp_path / "pack" / "two.py").write_text("from .one import f\n")
    modules = package_modules("pack", tmp_path)
    found = circles(modules, lambda name: imports(name, tmp_path))
    assert found == [["pack.one", "pack.two"]]
