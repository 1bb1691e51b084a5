"""Custom command files: Claude Code's folders beside ours, namespaces, $ARGUMENTS and $1..$9."""

from __future__ import annotations

import os
from pathlib import Path

from agent_core.command_text import expand_command, parse_invocation
from agent_core.config.paths import MewcodePaths
from agent_core.custom_commands import command_folders, load_command_files
from tests.helpers.command_registry import disk_registry


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_claude_folders_namespaces_and_precedence(tmp_path: Path) -> None:
    home, mew, project = tmp_path / "home", tmp_path / "mew", tmp_path / "project"
    folders = command_folders(mew, home, project)
    write(home / ".claude/commands/greet.md", "user-claude greet")
    write(home / ".claude/commands/only-user.md", "from ~/.claude")
    write(mew / "commands/greet.md", "user-mewcode greet")
    write(project / ".claude/commands/greet.md", "project-claude greet")
    write(project / ".claude/commands/frontend/component.md", "Make $1 in $2")
    write(project / ".mewcode/commands/review-pr.md", "ours")
    found = load_command_files(folders).commands
    assert found["greet"].body == "project-claude greet"  # the project over the user
    assert found["only-user"].body == "from ~/.claude"
    assert found["frontend:component"].body == "Make $1 in $2"
    write(project / ".mewcode/commands/greet.md", "project-mewcode greet")
    assert load_command_files(folders).commands["greet"].body == "project-mewcode greet"


def test_front_matter_hint_and_unsupported_keys_are_said(tmp_path: Path) -> None:
    write(
        tmp_path / "c/fix.md",
        "---\ndescription: Fix an issue\nargument-hint: [issue] [priority]\nallowed-tools: Bash(git:*)\n"
        "model: opus\n---\nFix $ARGUMENTS\n",
    )
    found = load_command_files([tmp_path / "c"])
    fix = found.commands["fix"]
    assert (fix.description, fix.argument_hint) == ("Fix an issue", "[issue] [priority]")
    assert found.notices == [
        f"{tmp_path / 'c/fix.md'}: allowed-tools and model not supported: /fix runs with "
        "the session's permissions and model"
    ]


def test_a_command_file_linking_out_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "id_rsa"
    secret.write_text("SECRET")
    (tmp_path / "c").mkdir()
    os.symlink(secret, tmp_path / "c" / "steal.md")
    os.symlink(tmp_path, tmp_path / "c" / "loop")
    assert load_command_files([tmp_path / "c"]).commands == {}


def test_arguments_positionals_and_bang_lines() -> None:
    assert expand_command("Hi $ARGUMENTS!", "Ada Lovelace") == ("Hi Ada Lovelace!", [])
    assert expand_command("$2 then $1, not $10", "a 'b c'")[0] == "b c then a, not $10"
    assert expand_command("Only $1 and $3.", "x")[0] == "Only x and ."
    text, notices = expand_command("!`git status`\nSummarise @src/app.py", "")
    assert text.startswith("!`git status`") and "@src/app.py" in text
    assert notices == ["its !`command` lines are not run; they reach the model as text"]
    assert parse_invocation("/frontend:Component  Button ") == ("frontend:component", "Button")


def test_a_builtin_is_never_replaced_and_the_clash_is_named(tmp_path: Path) -> None:
    paths = MewcodePaths(home=tmp_path / "home", project=tmp_path / "project")
    write(paths.project / ".claude/commands/help.md", "not help")
    write(paths.project / ".claude/commands/frontend/component.md", "component")
    registry = disk_registry(paths)
    assert registry.get("help").kind == "local" and registry.shadowed == ["help"]
    assert registry.get("frontend:component").kind == "prompt"


def test_the_headless_builtin_list_is_the_registrys(tmp_path: Path) -> None:
    from mewcode_tui.command_prompt import BUILTIN_NAMES
    from mewcode_tui.commands import build_registry

    assert {c.name for c in build_registry().all()} == BUILTIN_NAMES


def test_headless_expands_a_custom_command_but_never_a_builtins_name(tmp_path: Path) -> None:
    from mewcode_tui.command_prompt import command_prompt

    paths = MewcodePaths(home=tmp_path / "mew", project=tmp_path / "project")
    home = tmp_path / "home"
    write(paths.project / ".claude/commands/greet.md", "Say hello to $ARGUMENTS.")
    write(paths.project / ".claude/commands/init.md", "not init")
    assert command_prompt("/greet Ada", paths, home) == ("Say hello to Ada.", [])
    assert command_prompt("/init", paths, home) == ("/init", [])
    assert command_prompt("/nothing here", paths, home) == ("/nothing here", [])
