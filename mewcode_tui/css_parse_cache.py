"""Parsed CSS shared by every Textual stylesheet of the process that has the same variables.

Textual keeps parsed rules per ``Stylesheet``, so every new app parses all of its
CSS again: about 11 ms before the first frame here. Parsing depends only on the
source text, where it was read from, its flags and the variables substituted
into it, so one process-wide table keyed on all of them returns the rules
Textual would have built. The preload server fills it with a headless run of
the UI (``preload/warm_ui.py``) and each command it forks starts with it; in
one process, a theme switched back and forth is parsed once per theme.

It wraps one private method of Textual's; where that method's signature is not
the one this was written against, nothing is installed and Textual parses as
it always does.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

_EXPECTED_PARAMETERS = ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
MAX_ENTRIES = 1024  # CSS sources x themes; a handful of themes needs ~30 per theme
_parsed: dict[tuple[Any, ...], list[Any]] = {}


def install() -> bool:
    """Share parsed rules between stylesheets from now on; False when Textual's API differs."""
    from textual.css.stylesheet import Stylesheet

    original = Stylesheet._parse_rules
    if getattr(original, "shares_parsed_css", False):
        return True
    if list(inspect.signature(original).parameters) != _EXPECTED_PARAMETERS:
        return False
    Stylesheet._parse_rules = _shared(original)  # type: ignore[method-assign]
    return True


def _shared(original: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    @functools.wraps(original)
    def parse_rules(
        self: Any,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[Any]:
        variables = tuple(sorted(self._variables.items()))
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
        rules = _parsed.get(key)
        if rules is None:
            rules = original(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(_parsed) < MAX_ENTRIES:
                _parsed[key] = rules
        return list(rules)  # Textual's own cache hands out the list; ours stays unshared

    parse_rules.shares_parsed_css = True  # type: ignore[attr-defined]
    return parse_rules


def parsed_count() -> int:
    """How many parsed sources the table holds (for tests and the preload log)."""
    return len(_parsed)
