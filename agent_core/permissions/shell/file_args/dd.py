"""dd: ``if=`` is read, ``of=`` is written (operands no option table describes)."""

from __future__ import annotations

from agent_core.permissions.shell.file_args.model import FileUse
from agent_core.permissions.shell.model import Word


def dd_uses(args: list[Word]) -> FileUse:
    """dd: if= is read, of= is written."""
    use = FileUse()
    for word in args:
        if word.text.startswith("if="):
            use.read(Word(word.text[3:], word.dynamic))
        elif word.text.startswith("of="):
            use.write(Word(word.text[3:], word.dynamic))
    return use
