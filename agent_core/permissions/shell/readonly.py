"""Positive knowledge: whether a command is known to only read and print.

A command runs unasked in default mode only when every program in it has a
table marked read-only, every option and operand it passes is in that table
as harmless, and every wrapper around it (timeout, nice, env...) is used with
known options too. Anything else is unknown and asks; the paths it reads still
go through the sandbox layer.
"""

from __future__ import annotations

from agent_core.permissions.shell.model import SimpleCommand, Word, unknown
from agent_core.permissions.shell.tables import program, table_names
from agent_core.permissions.shell.walker import Walk, walk_command

_VERSION_FLAGS = frozenset({"--version", "-V", "--help"})  # not -h: `shutdown -h` halts
_MAX_WRAPPERS = 16


def read_only_programs() -> frozenset[str]:
    """Every program (and alias) whose table says it only reads and prints."""
    found = set()
    for name in table_names():
        table = program(name)
        if table is not None and table.spec.read_only:
            found.add(name)
    return frozenset(found)


def not_read_only(cmd: SimpleCommand) -> str:
    """Why ``cmd`` is not known to be read-only; "" when it is."""
    return judge_words([*cmd.wrapped, *cmd.words])


def is_read_only(cmd: SimpleCommand) -> bool:
    """True when every program and option of ``cmd`` (as rules see it) is known to be safe."""
    return not not_read_only(cmd)


def judge_words(words: list[Word]) -> str:
    """Walk a command and the commands its wrappers run; the first doubt, or ""."""
    for _ in range(_MAX_WRAPPERS):
        if not words:
            return ""
        first = words[0]
        if unknown(first) or first.dynamic:
            return f"the program name is known only at run time: {first.text}"
        name = first.text
        rest = [w.text for w in words[1:]]
        if len(rest) == 1 and rest[0] in _VERSION_FLAGS and "/" not in name and "=" not in name:
            return ""  # `X --version`: a program named on PATH describing itself
        walk: Walk = walk_command(name, list(words[1:]))
        if walk.unknown:
            return walk.unknown
        if walk.command is None:
            return ""
        words = walk.command
    return "too many wrappers to check"
