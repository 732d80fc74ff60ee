"""The trainers' settings as the page sends them (training/session.py, microgpt/session.py):
only keys their Config knows, as course/options.py holds mkdocs.yml's."""

from dataclasses import fields


def known_keys(config_class, given):
    """`given` (a dict), every key a field of the dataclass `config_class`; else a ValueError
    that names the key and the fields."""
    names = [field.name for field in fields(config_class)]
    unknown = sorted(key for key in given if key not in names)
    if unknown:
        raise ValueError(
            f"unknown setting {', '.join(map(repr, unknown))} (the settings are {', '.join(names)})"
        )
    return dict(given)
