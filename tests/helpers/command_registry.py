"""The slash command registry as the screen builds it before the session opens: from disk."""

from __future__ import annotations

from agent_core.config.paths import MewcodePaths
from agent_core.protocol.queries import custom_commands, installed_skills
from mewcode_tui.commands import build_registry
from mewcode_tui.commands.registry import CommandRegistry


def disk_registry(paths: MewcodePaths) -> CommandRegistry:
    """Built-ins, the custom commands and the skills found under ``paths`` now."""
    return build_registry(custom_commands(paths), installed_skills(paths))
