"""What the shell parser produces: simple commands, redirects, and doubts."""

from __future__ import annotations

import msgspec

from agent_core.permissions.shell_wrappers import Word


class SimpleCommand(msgspec.Struct, frozen=True):
    """One command as it runs: ``argv`` with wrappers stripped, ``words`` as rules see it."""

    argv: tuple[Word, ...]
    words: tuple[Word, ...]
    cwd: str = ""  # "" is the project root, "?" unknown, else the path an earlier `cd` gave
    upstream: tuple[str, ...] = ()  # programs piped into this one
    substituted: tuple[str, ...] = ()  # programs whose output is spliced into its words
    text: str = ""

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
