"""What the redactor's format tables are made of: a format, one match of it, and shared checks.

The tables themselves are in redact_formats.py (tokens and keys),
redact_commands.py (passwords on command lines) and redact_files.py
(credential files: .npmrc, Docker's config.json, the AWS console's CSV).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

REDACTED = "[REDACTED]"

# The longest text one format can match; a stream holds this much back between chunks.
MAX_MATCH = 16_384


class Found(NamedTuple):
    """One match of one format, with the format's own group names."""

    match: re.Match[str]
    prefix: str  # how this format's groups are named inside the combined regex
    then: re.Match[str] | None = None  # the match of the format's ``follow``, if it has one

    def group(self, name: str) -> str | None:
        if self.then is not None and name in self.then.re.groupindex:
            return self.then.group(name)
        key = self.prefix + name
        return self.match.group(key) if key in self.match.re.groupindex else None

    def span(self, name: str) -> tuple[int, int]:
        if self.then is not None and name in self.then.re.groupindex:
            return self.then.span(name)
        return self.match.span(self.prefix + name)

    def start(self) -> int:
        return self.match.start()

    def end(self) -> int:
        return self.then.end() if self.then is not None else self.match.end()


Check = Callable[[Found, str], bool]
Spans = Callable[[Found, str], list[tuple[int, int]]]


class Format(NamedTuple):
    """One credential format: the literal it starts with, the rest, and what is secret.

    ``pattern`` follows ``lead``. Its named group ``secret`` (or the first of
    ``secrets`` that matched) is redacted; without one, the whole match is.
    """

    name: str
    lead: str
    pattern: str
    check: Check | None = None
    secrets: tuple[str, ...] = ("secret",)
    # The rest of the match, compiled once for every format that shares it and
    # matched where ``pattern`` ends (the assignment body, shared by 17 leads).
    follow: str = ""
    # Where the secrets are, when they are not one group of the match (a PEM body
    # before its END line, the password and key columns of a CSV's rows).
    spans: Spans | None = None


# --- checks shared by the tables: a last look at a match, in Python, only where it matched ---


def left_edge(found: Found, text: str) -> bool:
    """Not the tail of a longer word or base64 run."""
    start = found.start()
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-+/")


def after(chars: str) -> Check:
    """The lead is the rest of a word that starts with one of ``chars`` ("oken" in token)."""

    def check(found: Found, text: str) -> bool:
        start = found.start()
        return start > 0 and text[start - 1] in chars

    return check


def both(first: Check, second: Check) -> Check:
    return lambda found, text: first(found, text) and second(found, text)


def literal_value(found: Found, text: str) -> bool:
    """The secret group holds a value, not a placeholder (``$PW``, ``<password>``) or a redaction."""
    value = next((v for v in map(found.group, ("secret", "q1", "q2", "bare")) if v), "")
    return not PLACEHOLDER.match(value) and REDACTED not in value


PLACEHOLDER = re.compile(
    r"\$\{?[A-Za-z_][\w.]*\}?\Z|\{\{.*\}\}\Z|%\(?\w*\)?s\Z|<[^<>]*>\Z|\*+\Z|x{3,}\Z|\.{3}\Z"
    r"|\{[A-Za-z_][\w.]*\}\Z|\$\(",
    re.IGNORECASE,
)

# A value as a shell word: single- or double-quoted (spaces allowed), or bare. A bare
# value runs to the next space (`-ppa(ss)` from a log goes whole) but does not start
# with a shell operator (`mysql -p; ls`), and may follow a quote never closed (a line cut short).
SHELL_VALUE = (
    r"(?:\\?'(?P<q1>[^'\n]{1,512})'|\\?\"(?P<q2>[^\"\n\\]{1,512})\\?\""
    r"|\\?[\"']?(?P<bare>[^\s\"'`\\;|&][^\s\"'`\\]{0,511}))"
)
SHELL_VALUE_GROUPS = ("q1", "q2", "bare")
