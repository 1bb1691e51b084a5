"""Started in a subfolder, `mewcode -p` works for the project root: its CLAUDE.md family
(with @imports), settings, .mcp.json and sessions, while Bash starts where the user is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.headless import MEWCODE, headless_process

WITNESS = "HOME-SECRET-WITNESS-7731"


@pytest.fixture
def repo(project: Path) -> Path:
    """A git checkout (a .git folder is enough: the root is found without running git)."""
    (project / ".git").mkdir()
    (project / "sub" / "deeper").mkdir(parents=True)
    return project


def sent(fake_llm) -> str:
    return json.dumps([r.body for r in fake_llm.requests], ensure_ascii=False)


def test_the_claude_md_family_and_imports_reach_the_model_but_no_secret(fake_llm, repo) -> None:
    home = Path(os.environ["HOME"])
    (home / "notes").mkdir()
    (home / "notes" / "secret.md").write_text(WITNESS)
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text(WITNESS)
    (home / ".claude").mkdir()
    (home / ".claude" / "CLAUDE.md").write_text("user-claude-md: answer in English")
    (repo / "docs").mkdir()
    (repo / "CLAUDE.md").write_text(
        "root-claude-md @docs/style.md @~/notes/secret.md @~/.ssh/id_rsa\n"
        "```\n@docs/fenced.md\n```\n"
    )
    (repo / "docs" / "style.md").write_text("imported-style @../CLAUDE.md @chain1.md")
    (repo / "docs" / "fenced.md").write_text("FENCED-NOT-IMPORTED")
    for level in range(1, 8):
        (repo / "docs" / f"chain{level}.md").write_text(f"chain-{level} @chain{level + 1}.md")
    (repo / "CLAUDE.local.md").write_text("local-claude-md")
    (repo / "sub" / "CLAUDE.md").write_text("sub-claude-md")
    fake_llm.script([{"text": "ok"}])
    proc = headless_process(["-p", "hi"], fake_llm.env("anthropic"), repo / "sub" / "deeper")
    assert proc.returncode == 0, proc.stderr
    system = json.dumps(fake_llm.requests[0].body["system"], ensure_ascii=False)
    for text in ("user-claude-md", "root-claude-md", "imported-style", "local-claude-md"):
        assert text in system
    assert system.index("root-claude-md") < system.index("sub-claude-md")
    # style.md is CLAUDE.md's first hop: chain1..chain4 are hops 2..5, chain5 is cut.
    assert "chain-4" in system and "chain-5" not in system
    assert system.count("root-claude-md") == 1  # the cycle back to CLAUDE.md is cut
    assert "FENCED-NOT-IMPORTED" not in system
    assert WITNESS not in sent(fake_llm)


def test_a_subfolder_start_uses_the_roots_settings_and_bash_starts_in_the_subfolder(
    fake_llm, repo
) -> None:
    (repo / ".mewcode").mkdir()
    (repo / ".mewcode" / "settings.yaml").write_text("permissions:\n  deny: ['Bash(touch:*)']\n")
    calls = [
        {"id": "b1", "name": "Bash", "input": {"command": "pwd"}},
        {"id": "b2", "name": "Bash", "input": {"command": "touch made.txt"}},
    ]
    fake_llm.script([{"tool_calls": calls}, {"text": "done"}])
    start = repo / "sub"
    proc = headless_process(
        ["-p", "go", "--allowedTools", "Bash"], fake_llm.env("anthropic"), start
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert [d["tool_use_id"] for d in result["permission_denials"]] == ["b2"]
    assert not (start / "made.txt").exists() and not (repo / "made.txt").exists()
    results = fake_llm.requests[1].body["messages"][-1]["content"]
    pwd = next(b for b in results if b.get("tool_use_id") == "b1")
    assert str(start) in json.dumps(pwd["content"])  # not the root: Bash starts where the user is


def test_continue_from_a_subfolder_finds_the_roots_session(fake_llm, repo) -> None:
    fake_llm.script([{"text": "first answer"}])
    first = headless_process(["-p", "remember the word PELICAN"], fake_llm.env("anthropic"), repo)
    assert first.returncode == 0, first.stderr
    fake_llm.script([{"text": "second answer"}])
    args = ["-p", "which word?", "--continue"]
    second = headless_process(args, fake_llm.env("anthropic"), repo / "sub" / "deeper")
    assert second.returncode == 0, second.stderr
    assert "PELICAN" in json.dumps(fake_llm.requests[-1].body["messages"])


def test_mcp_list_from_a_subfolder_lists_the_roots_servers(repo) -> None:
    (repo / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"rootserver": {"command": sys.executable, "args": ["-V"]}}})
    )
    proc = subprocess.run(
        [*MEWCODE, "mcp", "list", "--cwd", str(repo / "sub" / "deeper")],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()]
    assert any(r[:3] == ["rootserver", "stdio", "project"] for r in rows), proc.stdout


def test_p_sends_a_claude_commands_expanded_prompt_from_a_subfolder(fake_llm, repo) -> None:
    folder = repo / ".claude" / "commands"
    (folder / "frontend").mkdir(parents=True)
    (folder / "greet.md").write_text(
        "---\ndescription: Greet\nallowed-tools: Bash\n---\nSay hello to $ARGUMENTS.\n!`date`\n"
    )
    (folder / "frontend" / "component.md").write_text("Create the $1 component in $2.")
    fake_llm.script([{"text": "Hello Ada"}, {"text": "made"}])
    env = fake_llm.env("anthropic")
    proc = headless_process(["-p", "/greet Ada"], env, repo / "sub")
    assert proc.returncode == 0, proc.stderr
    sent_prompt = json.dumps(fake_llm.requests[0].body["messages"][-1])
    assert "Say hello to Ada." in sent_prompt and "/greet" not in sent_prompt
    assert "allowed-tools not supported: /greet runs with the session's" in proc.stderr
    assert "/greet: its !`command` lines are not run" in proc.stderr
    proc = headless_process(["-p", "/frontend:component Button src/ui"], env, repo)
    assert proc.returncode == 0, proc.stderr
    assert "Create the Button component in src/ui." in json.dumps(fake_llm.requests[-1].body)


def test_relative_paths_from_a_subfolder_meet_the_deny_rule_for_the_file_they_name(
    fake_llm, repo
) -> None:
    """FAILS before the fix: the permission engine read relative paths from the project
    root while Bash and the file tools start in the subfolder, so `cat secrets/key.txt`
    in sub/ was checked as the root's (missing) secrets/key.txt and read sub/'s, past
    a deny rule for sub/secrets."""
    (repo / ".claude").mkdir()
    deny = {"permissions": {"deny": ["Read(./sub/secrets/**)", "Read(./secrets/**)"]}}
    (repo / ".claude" / "settings.json").write_text(json.dumps(deny))
    for folder in (repo / "secrets", repo / "sub" / "secrets"):
        folder.mkdir()
        (folder / "key.txt").write_text(WITNESS)
    calls = [
        {"id": "b1", "name": "Bash", "input": {"command": "cat secrets/key.txt"}},
        {"id": "r1", "name": "Read", "input": {"file_path": "secrets/key.txt"}},
        {"id": "r2", "name": "Read", "input": {"file_path": "../secrets/key.txt"}},
        {"id": "g1", "name": "Grep", "input": {"pattern": "WITNESS", "path": "secrets"}},
    ]
    fake_llm.script([{"tool_calls": calls}, {"text": "done"}])
    proc = headless_process(
        ["-p", "go", "--allowedTools", "Bash", "Read", "Grep"],
        fake_llm.env("anthropic"),
        repo / "sub",
    )
    assert proc.returncode == 0, proc.stderr
    denied = [d["tool_use_id"] for d in json.loads(proc.stdout)["permission_denials"]]
    assert denied == ["b1", "r1", "r2", "g1"]
    assert WITNESS not in sent(fake_llm)


def test_permissions_check_reads_relative_paths_from_where_it_runs(repo) -> None:
    (repo / ".claude").mkdir()
    deny = {"permissions": {"deny": ["Read(./sub/secrets/**)"]}}
    (repo / ".claude" / "settings.json").write_text(json.dumps(deny))
    proc = subprocess.run(
        [*MEWCODE, "permissions", "check", "Read", '{"file_path": "secrets/key.txt"}'],
        cwd=repo / "sub",
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(proc.stdout)["decision"] == "deny", proc.stdout + proc.stderr
