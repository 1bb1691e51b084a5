"""Bash pathname expansion (``*``, ``?``, ``[...]``, ``**``, extglob), with a budget."""

from __future__ import annotations

import os
import re
from pathlib import Path

GLOB_LIMIT = 2000  # matches (or directory entries read) before a glob counts as unknown
_GLOB_MAGIC = re.compile(r"[*?\[]|[+@!]\(")
_POSIX_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r"\s", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f",
    "word": r"\w", "cntrl": r"\x00-\x1f\x7f", "print": r" -~", "graph": "!-~",
}  # fmt: skip


def is_pattern(text: str) -> bool:
    """Whether bash would treat ``text`` as a glob (``*``, ``?``, ``[...]``, extglob)."""
    return _GLOB_MAGIC.search(text) is not None


def _bracket(comp: str, i: int) -> tuple[str, int] | None:
    """The regex for a ``[...]`` class starting at ``comp[i]``, and the index after it."""
    j = i + 1
    negate = j < len(comp) and comp[j] in "!^"
    j += negate
    body: list[str] = []
    first = True
    while j < len(comp):
        char = comp[j]
        if char == "]" and not first:
            inner = "".join(body) or r"\s\S"
            return ("[^" if negate else "[") + inner + "]", j + 1
        if char == "[" and comp.startswith("[:", j):
            end = comp.find(":]", j + 2)
            name = comp[j + 2 : end] if end > 0 else ""
            if name in _POSIX_CLASSES:
                body.append(_POSIX_CLASSES[name])
                j = end + 2
                first = False
                continue
        body.append("\\" + char if char in "\\^[]-" and not (char == "-" and body) else char)
        first = False
        j += 1
    return None


def _extglob_end(comp: str, start: int) -> int | None:
    """Index of the ``)`` closing the extglob group whose ``(`` is at ``start``."""
    depth = 0
    for j in range(start, len(comp)):
        if comp[j] == "(":
            depth += 1
        elif comp[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return None


def _translate(comp: str) -> str | None:
    """Regex for one glob component (None when it cannot be read)."""
    out: list[str] = []
    i = 0
    while i < len(comp):
        char = comp[i]
        if char in "?*+@!" and comp.startswith("(", i + 1):
            end = _extglob_end(comp, i + 1)
            if end is None:
                return None
            alternatives = []
            for alt in re.split(r"\|(?![^(]*\))", comp[i + 2 : end]):
                inner = _translate(alt)
                if inner is None:
                    return None
                alternatives.append(inner)
            group = "(?:" + "|".join(alternatives) + ")"
            suffix = {"?": "?", "*": "*", "+": "+", "@": ""}.get(char)
            out.append(".*" if suffix is None else group + suffix)  # !(...): anything (wider)
            i = end + 1
        elif char == "*":
            out.append(".*")
            i += 1
        elif char == "?":
            out.append(".")
            i += 1
        elif char == "[":
            found = _bracket(comp, i)
            if found is None:
                out.append(re.escape(char))
                i += 1
            else:
                out.append(found[0])
                i = found[1]
        elif char == "\\" and i + 1 < len(comp):
            out.append(re.escape(comp[i + 1]))
            i += 2
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix + name if prefix.endswith("/") else f"{prefix}/{name}"


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self, count: int = 1) -> bool:
        self.left -= count
        return self.left >= 0


def _entries(directory: str, budget: _Budget) -> list[os.DirEntry[str]] | None:
    try:
        with os.scandir(directory or ".") as it:
            entries = list(it)
    except OSError:
        return []
    return entries if budget.spend(len(entries) + 1) else None


def _match_component(
    comp: str, found: list[tuple[str, str]], dotglob: bool, dirs_only: bool, budget: _Budget
) -> list[tuple[str, str]] | None:
    regex = _translate(comp)
    if regex is None:
        return None
    pattern = re.compile(regex, re.DOTALL)
    hidden_ok = dotglob or comp.startswith(".") or re.search(r"[?*+@!]\(", comp) is not None
    matched: list[tuple[str, str]] = []
    for shown, actual in found:
        entries = _entries(actual, budget)
        if entries is None:
            return None
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name.startswith(".") and not hidden_ok:
                continue
            if not pattern.fullmatch(entry.name):
                continue
            if dirs_only and not _is_dir(entry):
                continue
            matched.append((_join(shown, entry.name), entry.path))
    return matched


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _descendants(
    found: list[tuple[str, str]], dotglob: bool, budget: _Budget
) -> list[tuple[str, str]] | None:
    """``**``: every directory below (and including) the ones found, as globstar reads it."""
    result: list[tuple[str, str]] = []
    queue = list(found)
    while queue:
        shown, actual = queue.pop(0)
        result.append((shown, actual))
        entries = _entries(actual, budget)
        if entries is None:
            return None
        for entry in sorted(entries, key=lambda e: e.name):
            hidden = entry.name.startswith(".") and not dotglob
            if not hidden and entry.is_dir(follow_symlinks=False):
                queue.append((_join(shown, entry.name), entry.path))
    return result


def expand_glob(
    pattern: str, base: Path, dotglob: bool = False, limit: int = GLOB_LIMIT
) -> list[str] | None:
    """Bash pathname expansion of ``pattern`` from ``base``: the matches as bash would write
    them ([] when nothing matches), or None when the expansion is too large to compute."""
    budget = _Budget(limit)
    absolute = pattern.startswith("/")
    parts = pattern.split("/")
    trailing = len(parts) > 1 and parts[-1] == ""
    comps = [p for p in parts if p != ""]
    found: list[tuple[str, str]] = [("/" if absolute else "", "/" if absolute else str(base))]
    globbed = False
    for index, comp in enumerate(comps):
        last = index == len(comps) - 1
        if not is_pattern(comp):
            found = [(_join(s, comp), os.path.join(a, comp)) for s, a in found]
            continue
        globbed = True
        if comp == "**":
            found_or_none = _descendants(found, dotglob, budget)
            if found_or_none is None:
                return None
            if not last:
                found = found_or_none
                continue
            comp = "*"  # a final ** also names every entry at every depth
            found = found_or_none
        dirs_only = not last or trailing
        matched = _match_component(comp, found, dotglob, dirs_only, budget)
        if matched is None:
            return None
        found = matched
        if len(found) > limit:
            return None
    if not globbed:
        return [pattern]
    existing = [s + ("/" if trailing else "") for s, a in found if os.path.lexists(a)]
    return sorted(set(existing))
