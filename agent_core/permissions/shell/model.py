"""What the shell parser produces: words, simple commands, redirects, and doubts."""

from __future__ import annotations

import re
from typing import NamedTuple

import msgspec


class Word(NamedTuple):
    """One shell word after quote removal; dynamic when it holds an expansion."""

    text: str
    dynamic: bool = False
    split: bool = False  # an unquoted expansion: may become several words (or none)


_OPAQUE = re.compile(r"[$`]|[<>]\(")


def unknown(word: Word) -> bool:
    """A word whose text is only known when it runs (``$X``, ``$(cmd)``, ``<(cmd)``).

    A substitution whose output the parser knows (``$(echo rm)``) stays dynamic,
    so no allow rule matches it, but its text is what runs.
    """
    return word.dynamic and bool(_OPAQUE.search(word.text))


class Assignment(NamedTuple):
    name: str
    value: str
    dynamic: bool


class Doubt(NamedTuple):
    """Why a command cannot be checked with certainty."""

    reason: str
    risky: bool = False  # the unknown part could amount to a blacklisted command


class Nested(NamedTuple):
    """A string some program runs as shell code."""

    text: str
    dynamic: bool = False
    indirect: bool = False  # run by a remote shell, a container or a program's settings


class XargsUse(NamedTuple):
    replace: str | None  # -I/-i: the string replaced by each input item
    from_file: bool  # -a FILE: items come from a file, not stdin


class SimpleCommand(msgspec.Struct, frozen=True):
    """One command as it runs: ``argv`` with wrappers stripped, ``words`` as rules see it."""

    argv: tuple[Word, ...]
    words: tuple[Word, ...]
    cwd: str = ""  # "" is the project root, "?" unknown, else the path an earlier `cd` gave
    upstream: tuple[str, ...] = ()  # programs piped into this one
    substituted: tuple[str, ...] = ()  # programs whose output is spliced into its words
    text: str = ""
    wrapped: tuple[Word, ...] = ()  # transparent wrappers stripped before words (timeout 5)

    @property
    def name(self) -> str:
        return self.argv[0].text if self.argv else ""


class Redirect(msgspec.Struct, frozen=True):
    """A redirect with a file target (fd duplications and here-documents are left out)."""

    op: str
    target: Word
    cwd: str = ""
    write: bool = True


class ParsedCommand(msgspec.Struct):
    """Everything a command line would run, and why the reading may be uncertain."""

    commands: list[SimpleCommand] = []
    redirects: list[Redirect] = []
    texts: list[str] = []  # every text parsed, nested -c/eval strings included
    uncertain: list[str] = []  # empty when the parse is certain
    risky: list[str] = []  # doubts whose unknown part could amount to a blacklisted command
    # Commands run elsewhere or by a program's settings (ssh host cmd, git -c core.pager=cmd):
    # judged by the blacklist only, the outer command's own approval covers them.
    indirect: list[SimpleCommand] = []

    @property
    def certain(self) -> bool:
        return not self.uncertain
