"""MCP permission rules: ``mcp__srv``, ``mcp__srv__*`` and ``mcp__srv__tool`` match exactly those."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.config.rule_syntax import rule_problem
from agent_core.config.settings import RuleEntry
from agent_core.permissions import PermissionPolicy, PermissionRequest, decide


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def _decision(project: Path, home: Path, tool: str, **lists: list[str]) -> str:
    rules = [RuleEntry(rule, kind, "test") for kind in ("deny", "ask", "allow")
             for rule in lists.get(kind, [])]  # fmt: skip
    policy = PermissionPolicy(project, [], rules, "default", home)
    return decide(PermissionRequest(tool, {}, False, "other"), policy).decision


# (rule, call, matches). Attacks first: another server's tools reached by a prefix,
# a server whose name holds the separator, a built-in's rule, case.
MATCHES = [
    ("mcp__git", "mcp__github__x", False),
    ("mcp__github", "mcp__git__x", False),
    ("mcp__git__*", "mcp__github__x", False),
    ("mcp__git__*", "mcp__git_hub__x", False),
    ("mcp__git_hub", "mcp__git__hub__x", False),  # tool 'hub__x' of server 'git'
    ("mcp__git__hub", "mcp__git__hub__x", False),  # tool 'hub' is not tool 'hub__x'
    ("mcp__git__read", "mcp__git__read_file", False),
    ("mcp__git__read_file", "mcp__git__read", False),
    ("mcp__git", "mcp__git", False),  # not a tool call name
    ("mcp__git", "mcp__git_", False),
    ("mcp__git_", "mcp__git___x", False),  # tool '_x' of 'git'; no server is named 'git_'
    ("mcp___x", "mcp___x__y", False),
    ("mcp__git", "mcp__Git__x", False),
    ("mcp__Git", "mcp__git__x", False),
    ("mcp__git__X", "mcp__git__x", False),
    ("Read", "mcp__git__read", False),
    ("Bash", "mcp__git__x", False),
    ("git", "mcp__git__x", False),
    ("mcp__git__*", "mcp__git__*", True),  # harmless: a tool name cannot hold '*'
    ("mcp__git", "mcp__git__x", True),
    ("mcp__git", "mcp__git__hub__x", True),
    ("mcp__git__*", "mcp__git__x", True),
    ("mcp__git__*", "mcp__git__list_resources", True),
    ("mcp__git__hub__x", "mcp__git__hub__x", True),
    ("mcp__git___x", "mcp__git___x", True),  # tool '_x'
    ("mcp__git", "mcp__git___x", True),
    ("mcp__git", "mcp__git___", True),  # tool '_'
    ("mcp__git_hub", "mcp__git_hub__x", True),
    ("mcp__git-hub__*", "mcp__git-hub__x", True),
    ("mcp__git__read", "mcp__git__read", True),
]


@pytest.mark.parametrize(("rule", "tool", "matches"), MATCHES)
def test_rule_matches_exactly_its_server_and_tool(
    project: Path, home: Path, rule: str, tool: str, matches: bool
) -> None:
    assert (_decision(project, home, tool, allow=[rule]) == "allow") is matches
    assert (_decision(project, home, tool, deny=[rule]) == "deny") is matches


def test_server_deny_beats_tool_allow(project: Path, home: Path) -> None:
    both = {"deny": ["mcp__git"], "allow": ["mcp__git__read"]}
    assert _decision(project, home, "mcp__git__read", **both) == "deny"
    assert _decision(project, home, "mcp__github__read", **both) == "ask"
    assert _decision(project, home, "mcp__git__read", ask=["mcp__git__*"],
                     allow=["mcp__git__read"]) == "ask"  # fmt: skip


# Rules no server could ever be reached by: rejected with one line, so a deny rule
# that protects nothing is never silently accepted.
BAD_RULES = [
    ("mcp___x", "server name '_x'"),
    ("mcp__git_", "server name 'git_'"),
    ("mcp___git__x", "server name '_git'"),
    ("mcp__", "expected mcp__server"),
    ("mcp__git__", "expected mcp__server"),
    ("mcp____x", "expected mcp__server"),
    ("mcp__*", "expected mcp__server"),
    ("mcp__g*t__x", "expected mcp__server"),
    ("mcp__git__read*", "'*' only as the whole tool part"),
    ("mcp__git__*__x", "'*' only as the whole tool part"),
    ("mcp__git__a.b", "tool names in rules use only letters, digits, '_' and '-'"),
    ("mcp__git.hub__x", "server name 'git.hub'"),
    ("mcp__git__" + "t" * 60, "longer than the 64 characters"),
    ("mcp__git(x)", "MCP rules take no specifier"),
    ("mcp__git()", "MCP rules take no specifier"),
]


@pytest.mark.parametrize(("rule", "words"), BAD_RULES)
def test_rules_that_cannot_match_a_server_are_rejected(rule: str, words: str) -> None:
    problem = rule_problem(rule)
    assert problem is not None and problem.startswith(f"{rule}: ")
    assert words in problem and "\n" not in problem


@pytest.mark.parametrize("rule", sorted({r for r, _, matches in MATCHES if matches}))
def test_every_form_used_above_is_valid(rule: str) -> None:
    assert rule_problem(rule) is None


# --- end to end through `mewcode permissions check` ---------------------------------------


def _check(
    paths: MewcodePaths, capsys: pytest.CaptureFixture[str], tool: str
) -> tuple[int, dict, str]:
    from mewcode_tui.cli import main

    code = main(["permissions", "check", tool, "{}", "--cwd", str(paths.project)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else {}), err


def test_permissions_check_end_to_end(
    paths: MewcodePaths, capsys: pytest.CaptureFixture[str]
) -> None:
    paths.user_settings.write_text(
        "permissions:\n  allow: ['mcp__git__read', 'mcp__github__*']\n  deny: ['mcp__git']\n"
    )
    code, verdict, _ = _check(paths, capsys, "mcp__git__read")
    assert (code, verdict["decision"], verdict["rule"]) == (0, "deny", "mcp__git")
    code, verdict, _ = _check(paths, capsys, "mcp__github__create_issue")
    assert (verdict["decision"], verdict["rule"]) == ("allow", "mcp__github__*")
    code, verdict, _ = _check(paths, capsys, "mcp__gitlab__x")
    assert (verdict["decision"], verdict["layer"]) == ("ask", "mode")


def test_a_malformed_mcp_deny_rule_stops_permissions_check(
    paths: MewcodePaths, capsys: pytest.CaptureFixture[str]
) -> None:
    paths.user_settings.write_text("permissions:\n  deny: ['mcp__git_']\n")
    code, verdict, err = _check(paths, capsys, "mcp__git__x")
    assert code == 1 and verdict == {}
    assert err.count("\n") == 1 and "mcp__git_: server name 'git_'" in err
