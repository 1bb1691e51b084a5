"""The pure text of slash commands: reading `/name args` and expanding a command's body.

``$ARGUMENTS`` is what follows the command and ``$1``..``$9`` its words; a body with
no slot gets the arguments appended. ``!`cmd``` lines are not run (told once). No
files here: agent_core/custom_commands.py reads the command files, and a front end
expands what a ``CommandList`` gave it without importing that loader.
"""

from __future__ import annotations

import re
import shlex

_POSITIONAL = re.compile(r"\$([1-9])(?![0-9])")
_BANG_LINE = re.compile(r"^\s*!`[^`]+`", re.MULTILINE)


def _words(args: str) -> list[str]:
    try:
        return shlex.split(args)
    except ValueError:  # an unclosed quote: plain words
        return args.split()


def expand_command(body: str, args: str) -> tuple[str, list[str]]:
    """The prompt for ``body`` called with ``args``, and notices (``!`` lines not run)."""
    notices: list[str] = []
    if _BANG_LINE.search(body):
        notices.append("its !`command` lines are not run; they reach the model as text")
    words = _words(args)
    has_slot = "$ARGUMENTS" in body or _POSITIONAL.search(body)
    text = body.replace("$ARGUMENTS", args)
    text = _POSITIONAL.sub(
        lambda m: words[int(m.group(1)) - 1] if int(m.group(1)) <= len(words) else "", text
    )
    if not has_slot and args:
        text = f"{text.rstrip()}\n\n{args}"
    return text, notices


def parse_invocation(text: str) -> tuple[str, str] | None:
    """'/name rest' -> ('name', 'rest'); None when ``text`` is not a command."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    head, _, args = stripped[1:].partition(" ")
    if not head or "/" in head:
        return None  # '/usr/bin/x' is a path, not a command
    return head.lower(), args.strip()
