"""The command line Claude Code scripts pass: several rule values, the prompt among them."""

from __future__ import annotations

import pytest

from agent_core.errors import ConfigError
from agent_core.permissions.cli_rules import cli_rules
from mewcode_tui.cli import main
from mewcode_tui.cli_parser import build_parser, parse_args


@pytest.mark.parametrize(
    ("argv", "prompt", "allowed"),
    [
        (["-p", "do it", "--allowedTools", "Read", "Edit"], "do it", ["Read", "Edit"]),
        (["-p", "do it", "--allowedTools", "Read,Edit"], "do it", ["Read,Edit"]),
        (["-p", "--allowedTools", "Read", "Edit", "do it"], "do it", ["Read", "Edit"]),
        (["-p", "--allowedTools", "Read", "Edit", "--", "do it"], "do it", ["Read", "Edit"]),
        (["-p", "--allowedTools", "Read", "--allowedTools", "Edit"], None, ["Read", "Edit"]),
        (["-p", "--allowedTools", "Bash(git log:*)", "Edit"], None, ["Bash(git log:*)", "Edit"]),
        (["--allowedTools", "Read", "--model", "m", "hi"], "hi", ["Read"]),
        (["-p", "--allowedTools", "Read", "do it", "--cwd", "."], "do it", ["Read"]),
        (["-p", "--allowedTools", "Read", "Bash", "--cwd", "."], None, ["Read", "Bash"]),
        (["-p", "--allowedTools=Read", "do it"], "do it", ["Read"]),
        (["-p", "--allowedTools", "X y", "--allowedTools", "Edit"], None, ["X y", "Edit"]),
    ],
)
def test_rule_flags_take_several_values_and_leave_the_prompt(
    argv: list[str], prompt: str | None, allowed: list[str]
) -> None:
    args = parse_args(argv)
    assert (args.prompt, args.allowed) == (prompt, allowed)


def test_a_rule_with_a_space_in_its_parentheses_stays_one_rule() -> None:
    args = parse_args(["-p", "x", "--allowedTools", "Bash(git log:*)", "Read,Edit"])
    assert [r.rule for r in cli_rules(args.allowed)] == ["Bash(git log:*)", "Read", "Edit"]


def test_a_deny_list_is_never_read_as_the_prompt() -> None:
    # A mistyped deny rule must stop the run, not vanish into the prompt.
    args = parse_args(["-p", "--disallowedTools", "Bash", "Bsh"])
    assert args.prompt is None
    with pytest.raises(ConfigError, match="Bsh"):
        cli_rules(args.allowed, args.disallowed)


@pytest.mark.parametrize(
    "flag",
    [
        "--verbose",
        "--dangerously-skip-permissions",
        "--strict-mcp-config",
        "--version",
        "--continue",
    ],
)
def test_claude_code_switches_are_recognised(flag: str) -> None:
    assert parse_args(["-p", "x", flag]).prompt == "x"


def test_flags_with_values_take_them() -> None:
    args = parse_args(
        ["-p", "x", "--add-dir", "a", "b", "--add-dir", "c", "--mcp-config", "m.json", "{}"]
        + ["--system-prompt", "S", "--append-system-prompt", "A", "--settings", "s.json"]
    )
    assert args.add_dirs == ["a", "b", "c"]
    assert args.mcp_configs == ["m.json", "{}"]
    assert (args.system_prompt, args.append_system_prompt, args.settings) == ("S", "A", "s.json")


def test_help_names_every_subcommand() -> None:
    text = build_parser().format_help()
    for sub in ("mcp list", "preload status|stop", "sandbox check", "permissions check"):
        assert f"mewcode {sub}" in text


def test_version_prints_the_package_version(capsys) -> None:
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"mewcode {version('mewcode')}\n"


def test_add_dir_that_does_not_exist_is_a_one_line_error(tmp_path, capsys) -> None:
    missing = tmp_path / "nope"
    assert main(["-p", "x", "--demo", "--add-dir", str(missing)]) == 1
    assert capsys.readouterr().err == f"mewcode: --add-dir {missing}: no such directory\n"


def test_skip_permissions_and_another_mode_disagree(capsys) -> None:
    code = main(["-p", "x", "--dangerously-skip-permissions", "--permission-mode", "plan"])
    assert code == 1
    assert "--dangerously-skip-permissions and --permission-mode plan disagree" in (
        capsys.readouterr().err
    )
