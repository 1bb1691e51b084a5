"""Which hooks a matcher selects, as Claude Code decides it (pure).

Empty or ``*``: everything. Only letters, digits, ``_``, ``-``, spaces and ``|``:
names joined by ``|``, each matched exactly (``Edit|Write``). Anything else is a
regular expression searched in the name, unanchored (``mcp__github__.*``, ``^Bash$``).
"""

from __future__ import annotations

import re
from functools import lru_cache

_PLAIN = re.compile(r"[A-Za-z0-9_| -]*")


def matcher_problem(matcher: str) -> str | None:
    """Why ``matcher`` cannot be used (an invalid regular expression), or None."""
    if _is_plain(matcher) or matcher.strip() == "*":
        return None
    try:
        _compiled(matcher)
    except re.error as exc:
        return f"matcher {matcher!r} is not a valid regular expression: {exc}"
    return None


def matches(matcher: str, target: str) -> bool:
    """Whether ``matcher`` selects ``target`` (a tool name, a trigger, a source...)."""
    if matcher.strip() in ("", "*"):
        return True
    if _is_plain(matcher):
        return target in {name.strip() for name in matcher.split("|")}
    try:
        return _compiled(matcher).search(target) is not None
    except re.error:
        return False  # reported when the settings were read


def _is_plain(matcher: str) -> bool:
    return _PLAIN.fullmatch(matcher) is not None


@lru_cache(maxsize=256)
def _compiled(matcher: str) -> re.Pattern[str]:
    return re.compile(matcher)
