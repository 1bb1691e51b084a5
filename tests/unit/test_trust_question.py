"""What the trust dialog is told about a project, read from its settings and files."""

from __future__ import annotations

import json

from agent_core.config.program_trust import RECORD_FILE
from agent_core.config.settings import load_settings
from agent_core.config.trust import record_trust
from mewcode_tui.screens.trust import TrustQuestion, WaitingSettings
from mewcode_tui.trust_question import trust_question


def write_claude_hook(project, command: str) -> None:
    hook = {"hooks": [{"type": "command", "command": command}]}
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {"SessionStart": [hook]}})
    )


def test_an_untrusted_project_is_asked_about_what_its_files_set(paths, project) -> None:
    paths.project_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.project_settings.write_text("permissions:\n  allow: ['Bash(make:*)']\n")
    entry = {"command": "uvx", "args": ["mcp-server-git"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"git": entry}}))

    question = trust_question(paths, load_settings(paths), home=project.parent)

    assert question == TrustQuestion(
        folder="~/project",
        remembered_in=str(paths.user_settings),
        waiting=(
            WaitingSettings(".mewcode/settings.yaml", ("permissions.allow (1 rule)",)),
            WaitingSettings(".mcp.json", ("MCP server git (uvx mcp-server-git)",)),
        ),
    )


def test_an_untrusted_project_with_nothing_waiting_is_still_asked(paths, project) -> None:
    question = trust_question(paths, load_settings(paths), home=project.parent)
    assert not question.retrust and question.waiting == ()


def test_a_trusted_project_whose_hook_changed_is_asked_again_about_it(paths, project) -> None:
    write_claude_hook(project, "true")
    record_trust(paths)
    write_claude_hook(project, "touch witness")

    question = trust_question(paths, load_settings(paths), home=project.parent)

    assert question.retrust and question.waiting == ()
    assert question.remembered_in == str(paths.home / RECORD_FILE)
    assert len(question.changed) == 1 and "touch witness (was: true)" in question.changed[0]
