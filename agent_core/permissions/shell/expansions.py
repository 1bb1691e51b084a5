"""The expansions in a word's raw text, found as bash would find them.

bashlex reports ``${x:-$(cmd)}`` as one opaque parameter, so ``$x``, ``${...}``,
``$(...)``, backquotes and ``<(...)`` are found here; ``param_kind`` and
``arithmetic_names`` say what a ``${...}`` or an arithmetic body does.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from agent_core.permissions.shell.lexer import ARITH_MARK, closing_paren, closing_quote


class Expansion(NamedTuple):
    """One expansion found in a word's raw text: ``$x``, ``${...}``, ``$(...)``, backquotes."""

    kind: str  # var | param | comsub | backtick | procsub
    body: str  # the name, or the text inside the delimiters
    quoted: bool  # inside double quotes
    start: int  # offsets in the raw word: raw[start:end] is the whole expansion
    end: int


def expansions(raw: str, in_dq_braces: bool = False) -> tuple[list[Expansion], bool]:
    """The top-level expansions in one word's raw text, and whether the scan was balanced.

    ``in_dq_braces``: ``raw`` is the inside of a ``${...}`` that was itself in double
    quotes, where single quotes are plain characters (``"${x:-'$(cmd)'}"`` runs cmd).
    """
    found: list[Expansion] = []
    i, n, in_dq = 0, len(raw), False
    while i < n:
        ch = raw[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "'" and not in_dq and not in_dq_braces:
            end = raw.find("'", i + 1)
            if end < 0:
                return found, False
            i = end + 1
            continue
        if raw.startswith("$'", i) and not in_dq and not in_dq_braces:
            j = i + 2
            while j < n and raw[j] != "'":
                j += 2 if raw[j] == "\\" else 1
            i = j + 1
            continue
        if ch == '"':
            in_dq = not in_dq
            i += 1
            continue
        kind, start, end = "", i, -1
        if raw.startswith("${", i):
            kind, start = "param", i + 2
            end = closing_brace(raw, start, in_dq or in_dq_braces)
        elif raw.startswith("$(", i):
            kind, start = "comsub", i + 2
            end = closing_paren(raw, start)
        elif ch in "<>" and raw.startswith("(", i + 1) and not in_dq:
            kind, start = "procsub", i + 2
            end = closing_paren(raw, start)
        elif ch == "`":
            kind, start = "backtick", i + 1
            end = closing_backtick(raw, start)
        elif ch == "$" and (m := _VAR.match(raw, i + 1)):
            found.append(Expansion("var", m.group(0), in_dq or in_dq_braces, i, m.end()))
            i = m.end()
            continue
        if not kind:
            i += 1
            continue
        if end < 0:
            found.append(Expansion(kind, raw[start:], in_dq, i, n))
            return found, False
        found.append(Expansion(kind, raw[start:end], in_dq or in_dq_braces, i, end + 1))
        i = end + 1
    return found, True


_VAR = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]")


def closing_brace(text: str, i: int, in_dq: bool) -> int:
    depth, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if (ch == "'" and not in_dq) or ch == '"' or ch == "`":
            end = closing_quote(text, i)
            if end < 0:
                return -1
            i = end + 1
            continue
        if text.startswith("$(", i):
            end = closing_paren(text, i + 2)
            if end < 0:
                return -1
            i = end + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return -1


def closing_backtick(text: str, i: int) -> int:
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "`":
            return i
        i += 1
    return -1


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PLAIN_PARAM = re.compile(rf"^(?:{_NAME}|[0-9]+|[@*#?$!-])(?:\[(?:[@*]|[0-9]+)\])?$")
_LENGTH = re.compile(rf"^#(?:{_NAME}|[0-9]+|[@*])(?:\[(?:[@*]|[0-9]+)\])?$")


class ParamKind(NamedTuple):
    operator: bool  # anything beyond ${NAME}, ${NAME[0]} or ${#NAME}
    runs_code: bool  # ${!x} (indirection, subscripts) or ${x@P} (prompt expansion)
    length: bool  # ${#x}: a number


def param_kind(body: str) -> ParamKind:
    """Classify the inside of ``${...}``."""
    if _PLAIN_PARAM.match(body) or body.startswith(ARITH_MARK):
        return ParamKind(False, False, False)
    if _LENGTH.match(body):
        return ParamKind(False, False, True)
    runs = body.startswith("!") or bool(re.search(r"@[PEA]?$", body) and "@P" in body)
    runs = runs or bool(re.match(rf"^{_NAME}\[", body))  # a computed subscript is arithmetic
    return ParamKind(True, runs, False)


_ARITH_PLAIN = re.compile(r"^[\s0-9+\-*/%<>=!&|^~?:(),xXa-fA-F#]*$")
_IDENT = re.compile(_NAME)


def arithmetic_names(body: str) -> list[str]:
    """Variables an arithmetic body reads (bash evaluates their values as expressions too)."""
    if _ARITH_PLAIN.match(body) and not re.search(r"[g-wyzG-WYZ_]", body):
        return []
    return [m.group(0) for m in _IDENT.finditer(body) if not re.match(r"0[xX]", m.group(0))]
