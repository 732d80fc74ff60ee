"""The course's settings: written once, under the `course` Markdown extension in mkdocs.yml,
and read there by both generators (MkDocs with Material, and Zensical) and by the site step.

    markdown_extensions:
      - course:
          memory_snapshot: true

HOSTING.md says what each one is for.
"""

from dataclasses import dataclass, fields
from pathlib import Path

import yaml

EXTENSION = "course"
MISSING_EXTENSION = (
    "no `course` under markdown_extensions: add `  - course` there (each page is its work)"
)
KINDS = {str: "a folder", float: "a number of seconds", bool: "true or false"}


class OptionsError(ValueError):
    """A setting the course cannot use; the message names it and says what to give."""


@dataclass(frozen=True)
class Options:
    # the folder holding grader/, exercises/, widget/ and node_modules/ (default: mkdocs.yml's)
    root: str = ""
    # seconds a learner's run may take before it is stopped
    time_limit: float = 5
    # ship isolate.js, a service worker that adds COOP/COEP for hosts that cannot send headers
    service_worker: bool = True
    # give every page a Content-Security-Policy <meta> tag (course/csp.py)
    content_security_policy: bool = True
    # "Show solution" and a find-the-bug tab's "Show the fix" (after an attempt and the last
    # hint) and the comparison with the reference (after a pass);
    # false leaves them out of the pages (the runner's archive still holds the references)
    solutions: bool = True
    # save Python's memory after the first start and restore it on later visits
    # (widget/src/worker/snapshot.js): Pyodide's snapshots are private API, so off unless asked
    memory_snapshot: bool = False
    # stop the build when an exercise of exercises/ is on no page (false: a site showing some)
    every_exercise_shown: bool = True

    @classmethod
    def of(cls, settings):
        """Options from mkdocs.yml's mapping, each setting checked."""
        known = {field.name: field.type for field in fields(cls)}
        for name, value in (settings or {}).items():
            if name not in known:
                raise OptionsError(
                    f"course: unknown setting {name!r} (the course takes {', '.join(known)})"
                )
            kind = known[name]
            wanted = (int, float) if kind is float else kind
            if not isinstance(value, wanted) or (kind is not bool and isinstance(value, bool)):
                raise OptionsError(f"course: {name} takes {KINDS[kind]}, not {value!r}")
        options = cls(**(settings or {}))
        if not 0 < options.time_limit <= 600:
            raise OptionsError("course: time_limit is in seconds: give a number above 0, up to 600")
        return options

    def course_root(self, folder):
        """The course's folder: `root` (from `folder`, the config file's), or `folder`."""
        folder = Path(folder).resolve()
        return (folder / self.root).resolve() if self.root else folder


class _Loader(yaml.SafeLoader):
    """mkdocs.yml as far as the site step needs it: whatever a tag makes (`!ENV`,
    `!!python/name:` and the like) is read as nothing."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def _read(config_file):
    try:
        return yaml.load(Path(config_file).read_text(encoding="utf-8"), Loader=_Loader) or {}
    except (OSError, yaml.YAMLError) as error:
        raise OptionsError(f"cannot read {config_file}: {error}") from error


def read_nav(config_file):
    """`(docs folder, nav)` as a config file gives them (nav None without one), for the site
    step's check of the start page (course/series.py)."""
    config = _read(config_file)
    return Path(config_file).resolve().parent / config.get("docs_dir", "docs"), config.get("nav")


def read_config(config_file):
    """`(options, site folder)` as a config file gives them, for the site step (which runs
    apart from the generator)."""
    config = _read(config_file)
    for entry in config.get("markdown_extensions") or []:
        name, settings = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        if name == EXTENSION:
            folder = Path(config_file).resolve().parent
            return Options.of(settings), folder / config.get("site_dir", "site")
    raise OptionsError(f"{config_file}: {MISSING_EXTENSION}")
