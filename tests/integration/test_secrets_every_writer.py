"""Every writer under MEWCODE_HOME redacts what it writes (docs/security.md#secrets-at-rest), each on its own.

One `mewcode -p` session against the fake LLM meets every credential format
the redactor knows (SECRETS_FILE, old and new) through each writer:

- the session JSONL: a Read of the file, the model's thinking and answer;
- the context layer's spill and the Bash capture's own spill (a 60 KB `cat`);
- a background shell's log; the audit log (a refused `curl -u`);
- an MCP server's stderr log: the server prints the file at start and on each
  call, with the token its configuration gives it;
- the MCP tool cache: the server quotes that token in a tool's description;
- memory.db (SQLite): Remember of a fact holding a key;
- the session again: a second run whose provider refuses the request, quoting a key.

Then every byte of every file under the home is searched, and the rows of
every SQLite database there. With any one writer's redaction taken out, this
test fails (each of those files gets secrets no other writer puts there).
The debug log is not among them: a session logs nothing of the user's unless
MewCode itself fails; test_secrets_at_rest.py checks its redaction directly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.at_rest import SPILLING_LIMITS, secret_reading_steps, secrets_found, walk
from tests.helpers.secret_samples import SAMPLES, SECRETS_FILE
from tests.mcp_servers.launch import EVERYTHING

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]
SERVER_TOKEN = "tok-7Hq2-LmZx-93aa-Wv0p"  # no format of its own: known as the server's env value


def sample(kind: str) -> str:
    """The sample's text: the secret with what makes it one (an id, a name, a URL)."""
    return next(s.text for s in SAMPLES if s.kind == kind)


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MEWCODE, *args, "--cwd", str(cwd)], env=env, capture_output=True, text=True, timeout=180
    )


def test_no_writer_leaves_a_secret_under_mewcode_home(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    (project / "secrets.txt").write_text(SECRETS_FILE)
    server_log = tmp_path / "server-stderr.txt"
    server_log.write_text(f"{SECRETS_FILE}\nstarting with EVERYTHING_TOKEN={SERVER_TOKEN}\n")
    everything = {
        "command": sys.executable,
        "args": [str(EVERYTHING)],
        "env": {
            "MCP_TEST_STDERR_FILE": str(server_log),
            "MCP_TEST_DESCRIPTION": f" Authenticates as {SERVER_TOKEN}.",
            "EVERYTHING_TOKEN": SERVER_TOKEN,
        },
    }
    (mewcode_home / "mcp.json").write_text(json.dumps({"mcpServers": {"everything": everything}}))
    settings = mewcode_home / "settings.yaml"
    settings.write_text(SPILLING_LIMITS)
    env = {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    remembered = next(s.secret for s in SAMPLES if s.kind == "age-secret-key")
    fake_llm.script(
        [
            *secret_reading_steps(f"The user pasted {sample('telegram-bot-token')}; read it."),
            {
                "tool_calls": [
                    {"id": "b3", "name": "Bash", "input": {"command": sample("sshpass-p")}}
                ]
            },
            {"tool_calls": [{"id": "o1", "name": "BashOutput", "input": {"bash_id": "bash_1"}}]},
            {
                "tool_calls": [
                    {"id": "m1", "name": "mcp__everything__echo", "input": {"text": "hi"}},
                    {
                        "id": "k1",
                        "name": "Remember",
                        "input": {"fact": f"the deploy identity is {remembered}"},
                    },
                ]
            },
            {"text": f"Done; the webhook is {sample('discord-webhook')}."},
        ]
    )
    allowed = ["--allowedTools", "Bash(cat:*),mcp__everything__echo,Remember"]
    proc = run(["-p", f"check {SAMPLES[0].text}", *allowed], env, project)
    assert proc.returncode == 0, proc.stderr
    remember_said = json.dumps(fake_llm.requests[-1].body)

    # A second run whose provider refuses the request, quoting a key: the turn's error.
    fake_llm.script([{"status": 400, "message": f"bad key {sample('npmrc-auth')}"}])
    failed = run(["-p", "--continue", "go on"], env, project)
    assert failed.returncode != 0

    found = secrets_found(
        mewcode_home, [s.secret for s in SAMPLES] + [SERVER_TOKEN, env["ANTHROPIC_API_KEY"]]
    )
    # mcp.json is the user's own file (written above, as a user would): kept as written.
    assert [f for f in found if not f.startswith("mcp.json: ")] == []
    assert "A secret in it was stored as [REDACTED]" in remember_said
    names = {p.relative_to(mewcode_home).as_posix() for p in walk(mewcode_home)[0]}
    # Each writer did write (so the search above looked at what each one wrote).
    for expected in ("logs/mcp-everything.log", "memory.db"):
        assert expected in names, sorted(names)
    for part in ("/tool-results/b1.txt", "/tool-results/bash-b1", "/tool-results/shell-bash_1"):
        assert any(part in n for n in names), sorted(names)
    assert any(n.startswith("cache/mcp/everything-") for n in names), sorted(names)
    assert any(n.endswith("/audit.jsonl") for n in names), sorted(names)
