"""Slash commands of the MewCode TUI."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agent_core.config.paths import MewcodePaths
from agent_core.custom_commands import command_folders
from mewcode_tui.commands import (
    context_cmds,
    hooks,
    info,
    mcp,
    memory,
    permissions,
    prompts,
    session,
    skills,
)
from mewcode_tui.commands.registry import CommandRegistry, SlashCommand


def build_registry(paths: MewcodePaths, extra: Sequence[SlashCommand] = ()) -> CommandRegistry:
    """Built-in commands, custom commands (agent_core.custom_commands: folders and
    precedence), then ``extra`` (skills).

    A custom command never replaces a built-in of the same name (it is listed in
    ``shadowed``).
    """
    registry = CommandRegistry()
    for module in (
        info,
        session,
        context_cmds,
        permissions,
        mcp,
        memory,
        hooks,
        prompts,
        skills,
    ):
        for command in module.COMMANDS:
            registry.register(command)
    builtin = {c.name for c in registry.all()}
    folders = command_folders(paths.home, Path.home(), paths.project)
    custom, registry.notices = prompts.load_custom_commands(folders)
    for command in [*custom, *extra]:
        # A cloned repo's commands/mode.md must not turn `/mode plan` into a prompt.
        if command.name in builtin:
            registry.shadowed.append(command.name)
        else:
            registry.register(command)
    return registry
