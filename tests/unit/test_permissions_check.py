"""``mewcode permissions check``: a dry run of the layers against the project's settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import Settings, append_rule, load_settings
from agent_core.permissions import check_json, policy_from_settings, run_check


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def test_blacklisted_command_reports_layer_and_rule(paths: MewcodePaths, home: Path) -> None:
    code, text = run_check(["Bash", '{"command": "sudo rm -rf /"}'], paths, Settings(), home=home)
    assert code == 0
    assert json.loads(text) == {
        "decision": "deny",
        "layer": "blacklist",
        "reason": "blocked: recursive delete of the root, home or a system directory: rm -rf /",
        "rule": "rm-recursive-system-dir",
    }


def test_rules_from_the_settings_files_apply(paths: MewcodePaths, home: Path) -> None:
    append_rule(paths.project_settings, "allow", "Bash(npm run test:*)")
    append_rule(paths.local_settings, "deny", "Bash(git push:*)")
    settings = load_settings(paths, trust_project=True)  # the project's allow rule needs trust
    allowed = check_json("Bash", '{"command": "npm run test -- -x"}', None, paths, settings,
                         home=home)  # fmt: skip
    assert allowed == {"decision": "allow", "layer": "rules",
                       "reason": "allowed by rule Bash(npm run test:*)",
                       "rule": "Bash(npm run test:*)"}  # fmt: skip
    denied = check_json("Bash", '{"command": "git push"}', None, paths, settings, home=home)
    assert denied["decision"] == "deny"
    assert str(paths.local_settings) in denied["reason"]


def test_mode_flag_and_default_mode(paths: MewcodePaths, home: Path) -> None:
    edit = '{"file_path": "a.py", "old_string": "x", "new_string": "y"}'
    code, text = run_check(["Edit", edit, "--mode", "plan"], paths, Settings(), home=home)
    assert (code, json.loads(text)["decision"]) == (0, "deny")
    code, text = run_check(["Edit", edit, "--mode=acceptEdits"], paths, Settings(), home=home)
    assert json.loads(text)["decision"] == "allow"
    settings = Settings(default_mode="acceptEdits")
    assert check_json("Edit", edit, None, paths, settings, home=home)["decision"] == "allow"


def test_additional_directories_from_settings(
    paths: MewcodePaths, home: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "shared"
    extra.mkdir()
    settings = Settings(additional_directories=[str(extra)])
    result = check_json("Read", json.dumps({"file_path": f"{extra}/x"}), None, paths, settings,
                        home=home)  # fmt: skip
    assert result["decision"] == "allow"


def test_mcp_tools_are_known_and_a_read_only_hint_still_asks(
    paths: MewcodePaths, home: Path
) -> None:
    plain = check_json("mcp__db__query", "{}", None, paths, Settings(), home=home)
    marked = check_json("mcp__db__query", "{}", None, paths, Settings(), ["mcp__db__query"],
                        home=home)  # fmt: skip
    assert (plain["decision"], marked["decision"]) == ("ask", "ask")
    assert "not marked read-only" in plain["reason"]
    assert "server's word" in marked["reason"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["Bash", "{not json"], "error: invalid JSON input: Expecting property name"),
        (["Bash", "[1, 2]"], "error: invalid JSON input: expected an object"),
        (["Frobnicate", "{}"], "error: unknown tool: Frobnicate"),
        # Claude Code tools MewCode does not have are not checked as if they existed.
        (["NotebookEdit", "{}"], "error: unknown tool: NotebookEdit"),
        (["WebSearch", '{"query": "x"}'], "error: unknown tool: WebSearch"),
        (
            ["Bash", "{}", "--mode", "yolo"],
            "error: --mode: 'yolo' is not a mode (default, acceptEdits",
        ),
    ],
)
def test_bad_input_is_a_one_line_error(
    paths: MewcodePaths, home: Path, argv: list[str], message: str
) -> None:
    code, text = run_check(argv, paths, Settings(), home=home)
    assert code == 2
    assert text.startswith(message)
    assert "\n" not in text


def test_missing_arguments_show_usage(paths: MewcodePaths, home: Path) -> None:
    code, text = run_check(["Bash"], paths, Settings(), home=home)
    assert code == 2
    assert "usage: mewcode permissions check TOOL" in text


def test_policy_from_settings_adds_session_rules_last(paths: MewcodePaths, home: Path) -> None:
    from agent_core.config.settings import RuleEntry

    session = RuleEntry("Bash(make:*)", "allow", "session")
    policy = policy_from_settings(paths, Settings(), "default", home, [session])
    assert policy.rules == [session]
    assert policy.project_root == paths.project
