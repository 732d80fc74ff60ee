"""The course's own imports, read with `ast` (imports inside functions too, none run): which
modules an entry point needs, for grader.zip (course/assets.py), and that no package imports
itself in a circle (tests/test_no_import_circles.py)."""

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_path(name, root=ROOT):
    """The file of module `name` (`grader.cli` -> grader/cli/__init__.py), or None."""
    base = Path(root, *name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def module_name(path, root=ROOT):
    """`grader/cli/__init__.py` -> `grader.cli`."""
    parts = Path(path).resolve().relative_to(Path(root).resolve()).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def imports(name, root=ROOT):
    """The course's modules that module `name` imports, anywhere in it, as a sorted tuple: the
    modules named, not the packages around them (`needed` adds those)."""
    path = module_path(name, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            inner = {f"{base}.{alias.name}" for alias in node.names}  # `from pkg import mod`
            found |= inner if all(module_path(module, root) for module in inner) else {base}
    return tuple(sorted(module for module in found - {name} if module_path(module, root)))


def _absolute(node, package):
    if not node.level:
        return node.module
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _parents(name):
    parts = name.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


def needed(*entries, root=ROOT):
    """Every course module that importing `entries` may import, the entries included."""
    seen, todo = set(), [module for entry in entries for module in (*_parents(entry), entry)]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(parent for module in imports(name, root) for parent in _parents(module))
            todo.extend(imports(name, root))
    return seen


def package_modules(package, root=ROOT):
    """Every module of `package`, its subpackages' too."""
    return {module_name(path, root) for path in sorted(Path(root, package).rglob("*.py"))}
