"""Claude Code's rule forms mean in MewCode what they mean in Claude Code (one table).

A single leading ``/`` is relative to the project root (Claude Code: the settings
file's project), ``//`` is absolute, ``~/`` the home directory, and ``Edit(...)``
covers Write and MultiEdit as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.config.settings import RuleEntry
from agent_core.permissions import PermissionPolicy, PermissionRequest, decide
from agent_core.permissions.check import tool_profile
from agent_core.tool_table import BUILTIN_TOOLS


def request(tool: str, **data: object) -> PermissionRequest:
    kind, read_only = tool_profile(tool) if tool in BUILTIN_TOOLS else ("other", False)
    return PermissionRequest(tool, dict(data), read_only, kind)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    (path / "notes").mkdir(parents=True)
    return path.resolve()


def denied(rule: str, req: PermissionRequest, project: Path, home: Path) -> bool:
    # The folders outside the project are readable, so the rule decides, not the sandbox layer.
    policy = PermissionPolicy(
        project,
        [Path("/etc"), Path("/var"), home],
        [RuleEntry(rule, "deny", "test")],
        "default",
        home,
    )
    verdict = decide(req, policy)
    return verdict.decision == "deny" and verdict.rule is not None  # by the rule itself


# (rule, tool, input builder, denied?)
CASES = [
    ("Read(./secrets/**)", "Read", lambda p, h: {"file_path": f"{p}/secrets/key.txt"}, True),
    ("Read(./secrets/**)", "Read", lambda p, h: {"file_path": f"{p}/secrets/a/b/c.txt"}, True),
    ("Read(./secrets/**)", "Read", lambda p, h: {"file_path": f"{p}/public/key.txt"}, False),
    ("Read(/secrets/**)", "Read", lambda p, h: {"file_path": f"{p}/secrets/key.txt"}, True),
    ("Read(/secrets/**)", "Read", lambda p, h: {"file_path": f"{p}/src/secrets/key.txt"}, False),
    ("Read(secrets/**)", "Read", lambda p, h: {"file_path": f"{p}/secrets/key.txt"}, True),
    ("Read(**/.env)", "Read", lambda p, h: {"file_path": f"{p}/a/b/.env"}, True),
    ("Read(*.env)", "Read", lambda p, h: {"file_path": f"{p}/deep/x.env"}, True),
    ("Read(//etc/hostname)", "Read", lambda p, h: {"file_path": "/etc/hostname"}, True),
    ("Read(//etc/**)", "Read", lambda p, h: {"file_path": "/var/nothing.txt"}, False),
    ("Read(~/notes/**)", "Read", lambda p, h: {"file_path": f"{h}/notes/a.txt"}, True),
    ("Read(~/notes/**)", "Read", lambda p, h: {"file_path": f"{p}/notes/a.txt"}, False),
    ("Read(./secrets/**)", "Grep", lambda p, h: {"pattern": "k", "path": f"{p}/secrets"}, True),
    ("Edit(./docs/**)", "Write", lambda p, h: {"file_path": f"{p}/docs/a.md", "content": ""}, True),
    ("Edit(./docs/**)", "Edit",
     lambda p, h: {"file_path": f"{p}/docs/a.md", "old_string": "a", "new_string": "b"}, True),
    ("Edit", "Write", lambda p, h: {"file_path": f"{p}/x.txt", "content": ""}, True),
    ("Bash(curl:*)", "Bash", lambda p, h: {"command": "curl https://example.com"}, True),
    ("Bash(curl:*)", "Bash", lambda p, h: {"command": "curl"}, True),
    ("Bash(curl:*)", "Bash", lambda p, h: {"command": "ls && curl -s x"}, True),
    ("Bash(curl:*)", "Bash", lambda p, h: {"command": "curlie x"}, False),
    ("Bash(curl *)", "Bash", lambda p, h: {"command": "curl https://example.com"}, True),
    ("Bash(git push:*)", "Bash", lambda p, h: {"command": "git push origin main"}, True),
    ("Bash(git push:*)", "Bash", lambda p, h: {"command": "git pull"}, False),
    ("Bash", "Bash", lambda p, h: {"command": "true"}, True),
    ("WebFetch(domain:example.com)", "WebFetch",
     lambda p, h: {"url": "https://docs.example.com/x", "prompt": "p"}, True),
    ("WebFetch(domain:example.com)", "WebFetch",
     lambda p, h: {"url": "https://example.org/", "prompt": "p"}, False),
]  # fmt: skip


@pytest.mark.parametrize(("rule", "tool", "data", "expected"), CASES)
def test_claude_code_rule_forms(project: Path, home: Path, rule, tool, data, expected) -> None:
    (project / "secrets").mkdir()
    (project / "secrets" / "key.txt").write_text("k")
    assert denied(rule, request(tool, **data(project, home)), project, home) is expected


@pytest.mark.parametrize(("rule", "tool", "expected"), [
    ("mcp__github__create_issue", "mcp__github__create_issue", True),
    ("mcp__github", "mcp__github__list_repos", True),
    ("mcp__github__*", "mcp__github__list_repos", True),
    ("mcp__github__create_issue", "mcp__github__list_repos", False),
])  # fmt: skip
def test_mcp_rule_forms(project: Path, home: Path, rule, tool, expected) -> None:
    assert denied(rule, PermissionRequest(tool, {}, False, "other"), project, home) is expected
