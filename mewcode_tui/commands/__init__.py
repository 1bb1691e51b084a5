"""Slash commands of the MewCode TUI."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core import events as ev
from agent_core.protocol import ops
from mewcode_tui.commands import (
    config,
    context_cmds,
    doctor,
    export,
    hooks,
    info,
    mcp,
    memory,
    permissions,
    prompts,
    session,
    shells,
    skills,
    workspace,
)
from mewcode_tui.commands.registry import CommandRegistry, ask

if TYPE_CHECKING:
    from mewcode_tui.session_client import SessionClient


def build_registry(
    custom: ev.CommandList | None = None, installed: ev.SkillList | None = None
) -> CommandRegistry:
    """Built-in commands, the custom commands, then one per skill (as the lists give them).

    A custom command or skill never replaces a built-in of the same name (it is listed in
    ``shadowed``); the custom commands' file notices go to ``notices``.
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
        config,
        workspace,
        doctor,
        export,
        shells,
    ):
        for command in module.COMMANDS:
            registry.register(command)
    builtin = {c.name for c in registry.all()}
    extra = [
        *(prompts.custom_command(c) for c in (custom.commands if custom else [])),
        *(skills.skill_commands(installed) if installed else []),
    ]
    registry.notices = list(custom.notices) if custom else []
    registry.skills = len(installed.skills) if installed else 0
    for command in extra:
        # A cloned repo's commands/mode.md must not turn `/mode plan` into a prompt.
        if command.name in builtin:
            registry.shadowed.append(command.name)
        else:
            registry.register(command)
    return registry


async def session_registry(client: SessionClient) -> CommandRegistry:
    """The registry with the custom commands and skills the session lists now."""
    custom = await ask(client, ops.QueryCommands(), ev.CommandList)
    installed = await ask(client, ops.QuerySkills(), ev.SkillList)
    return build_registry(custom, installed)
