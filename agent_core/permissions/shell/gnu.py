"""GNU option spelling shared by the readers still written in code: long-option prefixes."""

from __future__ import annotations

from collections.abc import Collection


def fs(*names: str) -> frozenset[str]:
    """A set of option names, short enough for the tables still written in code."""
    return frozenset(names)


def long_option(text: str, names: Collection[str]) -> str | None:
    """The known long option ``text`` names, exactly or as GNU's unambiguous prefix."""
    option = text.split("=", 1)[0]
    if option in names:
        return option
    if len(option) < 3 or not option.startswith("--"):
        return None
    matches = sorted(n for n in names if n.startswith(option))
    return matches[0] if matches else None
