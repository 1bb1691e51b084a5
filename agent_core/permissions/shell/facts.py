"""The analyzer's one entry point: ``analyze(command) -> ShellFacts``.

Everything the permission engine needs to know about a Bash command, read from
its text alone: each simple command as it runs, what it does to files, and
whether it is known to be read-only; the redirects; and the doubts that make
the whole reading uncertain. Resolving paths against the filesystem is the
engine's job (permissions/actions.py), not this one's.
"""

from __future__ import annotations

import functools

import msgspec

from agent_core.permissions.shell.file_args import FileUse, file_uses
from agent_core.permissions.shell.model import ParsedCommand, Redirect, SimpleCommand
from agent_core.permissions.shell.parse import parse_command
from agent_core.permissions.shell.readonly import not_read_only


class CommandFacts(msgspec.Struct, frozen=True):
    """One simple command: what it touches, and why it is not known read-only ("" if it is)."""

    command: SimpleCommand
    use: FileUse
    unknown: str = ""

    @property
    def read_only(self) -> bool:
        return not self.unknown


class ShellFacts(msgspec.Struct, frozen=True):
    """What a command line would run, as far as its text tells."""

    commands: tuple[CommandFacts, ...]
    redirects: tuple[Redirect, ...]
    texts: tuple[str, ...]  # every text parsed, nested -c/eval strings included
    uncertain: tuple[str, ...]  # empty when the reading is certain
    risky: tuple[str, ...]  # doubts whose unknown part could amount to a blacklisted command
    indirect: tuple[SimpleCommand, ...]  # run elsewhere (ssh host cmd): the blacklist's only

    @property
    def certain(self) -> bool:
        return not self.uncertain

    @property
    def programs(self) -> list[SimpleCommand]:
        """Every command the blacklist judges: those run here and those run elsewhere."""
        return [c.command for c in self.commands] + list(self.indirect)


def facts_of(parsed: ParsedCommand) -> ShellFacts:
    """The facts of an already parsed command line."""
    commands = tuple(
        CommandFacts(cmd, file_uses(cmd), not_read_only(cmd)) for cmd in parsed.commands
    )
    return ShellFacts(
        commands,
        tuple(parsed.redirects),
        tuple(parsed.texts),
        tuple(parsed.uncertain),
        tuple(parsed.risky),
        tuple(parsed.indirect),
    )


@functools.lru_cache(maxsize=64)
def analyze(command: str) -> ShellFacts:
    """Read a Bash command: the simple commands, their file uses and read-only facts."""
    return facts_of(parse_command(command))
