"""Every built-in slash command is registered: a command module's COMMANDS reach the registry
(docs/architecture.md#a-slash-command)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import mewcode_tui.commands
from agent_core.config.paths import MewcodePaths
from tests.helpers.command_registry import disk_registry


def declared_commands() -> dict[str, str]:
    """Command name -> the module under mewcode_tui/commands that declares it."""
    found: dict[str, str] = {}
    for info in pkgutil.iter_modules(mewcode_tui.commands.__path__):
        module = importlib.import_module(f"mewcode_tui.commands.{info.name}")
        for command in getattr(module, "COMMANDS", []):
            found[command.name] = info.name
    return found


def test_every_declared_command_is_in_the_registry(tmp_path: Path) -> None:
    # A new command module must also be listed in build_registry, or its commands exist for no one.
    registry = disk_registry(MewcodePaths(home=tmp_path / "home", project=tmp_path))
    missing = {name: module for name, module in declared_commands().items() if name not in registry}
    assert declared_commands() and missing == {}


def test_every_command_has_a_description_for_help(tmp_path: Path) -> None:
    registry = disk_registry(MewcodePaths(home=tmp_path / "home", project=tmp_path))
    assert [c.name for c in registry.all() if not c.description.strip()] == []
