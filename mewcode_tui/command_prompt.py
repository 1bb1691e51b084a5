"""`mewcode -p "/greet Ada"`: a custom command's prompt, expanded as the UI expands it.

Kept free of Textual (the headless path stays light): the built-in names are listed
here, and a test holds the list equal to the UI's registry. The prompt is expanded
before the session opens, from the command files as the session would list them
(``QueryCommands``'s answer, agent_core/protocol/queries.py).
"""

from __future__ import annotations

from pathlib import Path

from agent_core.command_text import expand_command, parse_invocation
from agent_core.config.paths import MewcodePaths
from agent_core.protocol.queries import custom_commands

BUILTIN_NAMES = frozenset({
    "add-dir", "bashes", "clear", "compact", "config", "context", "cost", "doctor", "exit", "export",
    "help", "hooks", "init", "mcp", "memory", "mode", "model", "permissions", "plan",
    "resume", "review", "skills", "status", "theme",
})  # fmt: skip


def command_prompt(
    prompt: str, paths: MewcodePaths, user_home: Path | None = None
) -> tuple[str, list[str]]:
    """(what to send, notices): ``prompt`` expanded when it calls a custom command,
    else unchanged (a built-in's name is never a custom command's)."""
    parsed = parse_invocation(prompt)
    if parsed is None or parsed[0] in BUILTIN_NAMES:
        return prompt, []
    name, args = parsed
    listing = custom_commands(paths, user_home)
    command = next((c for c in listing.commands if c.name == name), None)
    if command is None:
        return prompt, []
    text, notices = expand_command(command.body, args)
    told = [n for n in listing.notices if n.startswith(f"{command.source}:")]
    return text, [*told, *(f"/{name}: {n}" for n in notices)]
