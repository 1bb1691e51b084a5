"""Claude Code's settings files, end to end through `mewcode -p` and the fake LLM.

The issue: with ``"deny": ["Read(./secrets/**)", "Bash(curl:*)"]`` in
``.claude/settings.json`` the model's Read of ``secrets/key.txt`` ran. Witness
files show what ran, the fake server's request log what reached the model.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakellm.server import FakeLLMServer
from tests.helpers.headless import MEWCODE, headless_process

SECRET = "SECRET-KEY-WITNESS-7731"
DENY = {"permissions": {"deny": ["Read(./secrets/**)", "Bash(curl:*)"]}}


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    return path


@pytest.fixture
def claude_project(project: Path) -> Path:
    """The issue's project: a secret, the deny rules, and the user's own allow-everything."""
    (project / "secrets").mkdir()
    (project / "secrets" / "key.txt").write_text(SECRET)
    write_json(project / ".claude" / "settings.json", DENY)
    # The user's own Claude Code file allows every command: only the deny rule stops curl.
    write_json(Path.home() / ".claude" / "settings.json", {"permissions": {"allow": ["Bash"]}})
    return project


def tool_results(fake_llm) -> str:
    """What the last run's second request carried back to the model."""
    return json.dumps(fake_llm.requests[-1].body["messages"][-1])


def run(fake_llm, project: Path, *flags: str, extra_env: dict[str, str] | None = None):
    proc = headless_process(
        ["-p", "go", *flags], {**fake_llm.env("anthropic"), **(extra_env or {})}, project
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, (json.loads(proc.stdout) if proc.stdout.strip() else {}), proc.stderr


@pytest.mark.parametrize("trust", [[], ["--trust-project"]], ids=["untrusted", "trusted"])
def test_claude_deny_rules_stop_the_read_and_the_curl(fake_llm, claude_project, trust) -> None:
    project = claude_project
    calls = [
        {"id": "r1", "name": "Read", "input": {"file_path": "secrets/key.txt"}},
        {
            "id": "b1",
            "name": "Bash",
            "input": {"command": "curl -s file:///dev/null && touch curl-ran.txt"},
        },
        {"id": "b2", "name": "Bash", "input": {"command": "touch allowed-ran.txt"}},
    ]
    fake_llm.script([{"tool_calls": calls}, {"text": "done"}])
    code, result, err = run(fake_llm, project, *trust)
    assert code == 0, err
    assert [d["tool_use_id"] for d in result["permission_denials"]] == ["r1", "b1"]
    assert not (project / "curl-ran.txt").exists()
    assert (project / "allowed-ran.txt").exists()  # the user's allow rule was in force
    assert SECRET not in json.dumps([r.body for r in fake_llm.requests])


def test_permissions_check_answers_deny_for_the_claude_rules(claude_project) -> None:
    for flags in ([], ["--trust-project"]):
        check = ["permissions", "check", "Bash", '{"command": "curl https://example.com"}']
        proc = subprocess.run(
            [*MEWCODE, *check, *flags, "--cwd", str(claude_project)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        out = proc.stdout
        assert proc.returncode == 0, proc.stderr
        verdict = json.loads(out)
        assert verdict["decision"] == "deny"
        assert "Bash(curl:*)" in json.dumps(verdict)


@pytest.fixture
def attacker() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer(responder=lambda body: {"text": "thanks"}).start()
    try:
        yield server
    finally:
        server.stop()


def test_env_reaches_commands_but_not_the_provider(fake_llm, attacker, project) -> None:
    env = {"WITNESS_VAR": "from-settings", "ANTHROPIC_BASE_URL": attacker.anthropic_base_url}
    write_json(
        Path.home() / ".claude" / "settings.json",
        {"env": env, "permissions": {"allow": ["Bash"]}},
    )
    fake_llm.script(
        [
            {"tool_calls": [{"id": "b1", "name": "Bash",
                             "input": {"command": "printenv WITNESS_VAR"}}]},
            {"text": "done"},
        ]
    )  # fmt: skip
    code, result, err = run(fake_llm, project)
    assert code == 0, err
    assert "from-settings" in tool_results(fake_llm)
    assert attacker.requests == [] and len(fake_llm.requests) == 2


def test_an_untrusted_project_s_env_waits(fake_llm, project) -> None:
    write_json(project / ".claude" / "settings.json", {"env": {"WITNESS_VAR": "theirs"}})
    write_json(Path.home() / ".claude" / "settings.json", {"permissions": {"allow": ["Bash"]}})
    command = "printenv WITNESS_VAR || echo unset-witness"
    script = [{"tool_calls": [{"id": "b1", "name": "Bash", "input": {"command": command}}]},
              {"text": "done"}]  # fmt: skip
    fake_llm.script(script)
    code, _, err = run(fake_llm, project)
    assert code == 0, err
    assert "unset-witness" in tool_results(fake_llm)
    assert "settings.json: not applied until you trust this project: env" in err
    fake_llm.script(script)
    code, _, err = run(fake_llm, project, "--trust-project")
    assert code == 0, err
    assert "theirs" in tool_results(fake_llm)
    assert "unset-witness" not in tool_results(fake_llm)
