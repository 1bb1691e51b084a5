"""Trust is bound to content: a trusted folder's changed hook or server waits for trust again.

Headless (`mewcode -p` in its own process): a hook or an MCP server that is new or
changed since the user trusted the folder does not run, and one line says so;
`--trust-project` runs the folder as it is. Witness files show what ran.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_core.config.trust import record_trust
from tests.helpers.headless import headless_process


def claude_hook(project: Path, command: str) -> None:
    folder = project / ".claude"
    folder.mkdir(exist_ok=True)
    hook = {"hooks": [{"type": "command", "command": command}]}
    (folder / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [hook]}}))


def mcp_server(project: Path, name: str, witness: Path) -> None:
    config = {"mcpServers": {name: {"command": "touch", "args": [str(witness)]}}}
    (project / ".mcp.json").write_text(json.dumps(config))


def run(fake_llm, project: Path, *flags: str):
    fake_llm.script([{"text": "ok"}])
    proc = headless_process(["-p", "go", *flags], fake_llm.env("anthropic"), project)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def test_a_trusted_hook_runs_and_a_changed_one_waits(fake_llm, paths, project, tmp_path) -> None:
    trusted, changed = tmp_path / "trusted-ran", tmp_path / "changed-ran"
    claude_hook(project, f"touch {trusted}")
    record_trust(paths)
    run(fake_llm, project)
    assert trusted.exists()
    claude_hook(project, f"touch {changed}")  # a session, a git pull, anyone
    err = run(fake_llm, project)
    assert not changed.exists(), "a hook changed since the folder was trusted ran"
    lines = [line for line in err.splitlines() if "changed since you trusted" in line]
    assert len(lines) == 1 and f"touch {changed}" in lines[0], err
    run(fake_llm, project, "--trust-project")  # as it is, for this run
    assert changed.exists()


def test_a_new_server_in_a_trusted_folder_waits(fake_llm, paths, project, tmp_path) -> None:
    first, planted = tmp_path / "first-started", tmp_path / "planted-started"
    mcp_server(project, "mine", first)
    record_trust(paths)
    config = json.loads((project / ".mcp.json").read_text())
    config["mcpServers"]["planted"] = {"command": "touch", "args": [str(planted)]}
    (project / ".mcp.json").write_text(json.dumps(config))
    err = run(fake_llm, project)
    assert not planted.exists(), "a server added since the folder was trusted started"
    assert "planted" in err and "changed since you trusted" in err, err


def test_trusting_again_records_the_programs_as_they_are(fake_llm, paths, project, tmp_path):
    witness = tmp_path / "ran"
    claude_hook(project, "true")
    record_trust(paths)
    claude_hook(project, f"touch {witness}")
    run(fake_llm, project)
    assert not witness.exists()
    record_trust(paths)  # what the dialog's "trust them" does
    run(fake_llm, project)
    assert witness.exists()


def test_an_unreadable_record_fails_closed(fake_llm, paths, project, tmp_path) -> None:
    witness = tmp_path / "ran"
    claude_hook(project, f"touch {witness}")
    record_trust(paths)
    (paths.home / "trusted-programs.json").write_text("{not json")
    run(fake_llm, project)
    assert not witness.exists()
