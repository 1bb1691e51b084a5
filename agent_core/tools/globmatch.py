"""Shell-style path globs ("**", "*", "?", "[...]", "{a,b}") compiled to regexes.

rg's own --glob cannot be used to select files: a glob that names a path
overrides .gitignore, so "**/*" would list node_modules. Glob therefore lists
the non-ignored files with rg and matches them here.
"""

from __future__ import annotations

import re

# A pattern like "{a,b}{c,d}{e,f}..." grows exponentially; past this, refuse.
MAX_ALTERNATIVES = 1024


class GlobSyntaxError(ValueError):
    """A glob that cannot be compiled (unbalanced braces, too many alternatives)."""


def expand_braces(pattern: str) -> list[str]:
    """Every alternative of the brace groups: "a.{py,pyi}" -> ["a.py", "a.pyi"]."""
    results = [pattern]
    done: list[str] = []
    while results:
        current = results.pop()
        group = _first_group(current)
        if group is None:
            done.append(current)
            continue
        start, end, options = group
        results.extend(current[:start] + opt + current[end + 1 :] for opt in options)
        if len(results) + len(done) > MAX_ALTERNATIVES:
            raise GlobSyntaxError("too many brace alternatives")
    return sorted(done)


def _first_group(pattern: str) -> tuple[int, int, list[str]] | None:
    """The first top-level {...} holding a comma: its span and its options."""
    depth = 0
    start = -1
    commas: list[int] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            if depth == 0:
                start, commas = i, []
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0 and commas:
                cuts = [start, *commas, i]
                options = [pattern[a + 1 : b] for a, b in zip(cuts, cuts[1:], strict=False)]
                return start, i, options
        elif char == "," and depth == 1:
            commas.append(i)
        i += 1
    if depth:
        raise GlobSyntaxError("unbalanced { in glob")
    return None


def _segment(seg: str) -> str:
    """Regex for one path segment: "*" and "?" never cross "/"."""
    out: list[str] = []
    i = 0
    while i < len(seg):
        char = seg[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "\\" and i + 1 < len(seg):
            i += 1
            out.append(re.escape(seg[i]))
        elif char == "[":
            negate = seg[i + 1 : i + 2] in ("!", "^")
            first = i + 1 + negate
            # The first character of a class is literal, so "[]a]" holds "]" and "a".
            close = seg.find("]", first + 1)
            if close < 0:
                out.append(re.escape(char))
            else:
                body = re.sub(r"([\\\[&~|^])", r"\\\1", seg[first:close])
                out.append("[" + ("^" if negate else "") + body + "]")
                i = close
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def _translate(pattern: str) -> str:
    segments = pattern.split("/")
    out: list[str] = []
    for index, seg in enumerate(segments):
        last = index == len(segments) - 1
        if seg == "**":
            out.append(".*" if last else "(?:.*/)?")
        else:
            out.append(_segment(seg) + ("" if last else "/"))
    return "".join(out)


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex that fully matches the relative paths (with "/") that pattern names."""
    alternatives = expand_braces(pattern)
    return re.compile("|".join(f"(?:{_translate(p)})" for p in alternatives), re.DOTALL)
