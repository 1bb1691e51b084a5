"""Slash command parsing, custom Markdown commands and the help listing."""

from __future__ import annotations

from pathlib import Path

from agent_core.command_text import expand_command
from agent_core.config.paths import MewcodePaths
from mewcode_tui.commands.info import help_text
from mewcode_tui.commands.registry import parse_command
from mewcode_tui.widgets.status_bar import compact_number, context_bar
from tests.helpers.command_registry import disk_registry


def test_parse_command():
    assert parse_command("/help") == ("help", "")
    assert parse_command("  /Permissions remove 2 ") == ("permissions", "remove 2")
    assert parse_command("/usr/bin/env python") is None  # a path, not a command
    assert parse_command("hello /help") is None


def test_custom_commands_from_markdown(tmp_path: Path):
    folder = tmp_path / ".mewcode" / "commands"
    folder.mkdir(parents=True)
    (folder / "fix-issue.md").write_text(
        "---\ndescription: Fix a GitHub issue\n---\nFix #$ARGUMENTS now.\n"
    )
    (folder / "plain.md").write_text("# Tidy imports\nSort the imports.\n")
    (folder / "Bad Name.md").write_text("ignored")
    registry = disk_registry(MewcodePaths(home=tmp_path / "home", project=tmp_path))
    commands = {c.name: c for c in registry.all() if c.kind == "prompt"}
    assert {"fix-issue", "plain"} <= set(commands) and "bad name" not in commands
    assert commands["fix-issue"].description == "Fix a GitHub issue"
    assert commands["plain"].description == "Tidy imports"
    assert commands["fix-issue"].kind == "prompt"
    assert expand_command("Fix #$ARGUMENTS now.", "42") == ("Fix #42 now.", [])
    assert expand_command("Sort.", "src/") == ("Sort.\n\nsrc/", [])


def test_registry_has_the_four_kinds_and_help_lists_them(tmp_path: Path):
    paths = MewcodePaths(home=tmp_path / "home", project=tmp_path)
    (tmp_path / ".mewcode" / "commands").mkdir(parents=True)
    (tmp_path / ".mewcode" / "commands" / "deploy.md").write_text("Deploy $ARGUMENTS")
    registry = disk_registry(paths)
    names = {c.name for c in registry.all()}
    assert {
        "help",
        "status",
        "cost",
        "clear",
        "model",
        "mode",
        "plan",
        "permissions",
        "theme",
        "review",
        "init",
        "exit",
        "deploy",
    } <= names
    text = help_text(registry)
    assert "/deploy [ARGS]" in text and "/permissions [remove N]" in text


def test_status_bar_figures():
    assert context_bar(50_000, 200_000) == ("▰▰▰▱▱▱▱▱▱▱", 25)
    assert context_bar(0, 0) == ("▱" * 10, 0)
    assert compact_number(999) == "999" and compact_number(18_400) == "18.4k"


def test_a_project_command_cannot_replace_a_built_in(paths) -> None:
    from mewcode_tui.commands.info import help_text
    from tests.helpers.command_registry import disk_registry

    folder = paths.project / ".mewcode" / "commands"
    folder.mkdir(parents=True)
    (folder / "mode.md").write_text("Pretend you are in plan mode.\n")
    (folder / "deploy.md").write_text("Deploy it.\n")
    registry = disk_registry(paths)
    assert registry.get("mode").kind == "ui"
    assert registry.get("deploy").kind == "prompt"
    assert registry.shadowed == ["mode"]
    assert "/deploy" in help_text(registry)
