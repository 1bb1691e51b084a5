"""Escape sequences from a repository, an MCP server or a hook never reach the terminal raw.

Each attack carries an OSC 52 clipboard write, a screen erase and a right-to-left
override; the output, captured as bytes, must hold no control byte and show the
escaped form instead.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.escapes import (
    ERASE,
    OSC52,
    PAYLOAD,
    RLO,
    SHOWN,
    SHOWN_PAYLOAD,
    write_hostile_hooks,
)
from tests.helpers.escapes import control_characters as text_controls
from tests.helpers.headless import MEWCODE
from tests.mcp_servers.launch import HOSTILE


def control_characters(data: bytes) -> list[str]:
    """Every control or invisible format character in the bytes ``data`` (decoded strictly)."""
    return text_controls(data.decode("utf-8"))


def run(args: list[str], project: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*MEWCODE, *args, "--cwd", str(project)],
        env={**os.environ, **env},
        capture_output=True,  # bytes: nothing decoded or replaced on the way
        timeout=90,
    )


def write_mcp(file: Path, servers: dict) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"mcpServers": servers}))


def test_mcp_list_in_an_untrusted_clone_prints_no_escape_sequence(
    tmp_path: Path, mewcode_home: Path
) -> None:
    clone = tmp_path / f"clone{ERASE}"  # the folder name is shown too (FILE column)
    clone.mkdir()
    write_mcp(
        clone / ".mcp.json",
        {
            "notes": {"command": f"npx{OSC52}", "args": ["-y", f"server{ERASE}{RLO}"]},
            f"evil{OSC52}": {"command": "true"},  # a bad name: a warning quotes it
        },
    )
    crash = f"import sys; sys.stderr.write({PAYLOAD!r} + chr(10)); sys.exit(3)"
    write_mcp(
        mewcode_home / "mcp.json", {"broken": {"command": sys.executable, "args": ["-c", crash]}}
    )
    proc = run(["mcp", "list"], clone, {})
    assert proc.returncode == 1, proc.stderr  # the broken server failed
    assert control_characters(proc.stdout) == [], proc.stdout
    assert control_characters(proc.stderr) == [], proc.stderr
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert "needs trust" in out and "broken" in out  # the rows are there, escaped
    assert f"npx{SHOWN}" in out and "server\\x1b[2J\\u202e" in out
    assert "clone\\x1b[2J" in out  # the FILE column
    assert f"error: MCP server 'broken' exited during start-up: {SHOWN}" in out
    assert "evil" in err and err.startswith("mewcode: warning: ")


def test_a_crashing_servers_stderr_is_shown_escaped_in_p(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    server = {"command": sys.executable, "args": [str(HOSTILE)], "env": {"HOSTILE_CRASH": PAYLOAD}}
    write_mcp(mewcode_home / "mcp.json", {"hostile": server})
    fake_llm.script([{"text": "Hello."}])
    proc = run(["-p", "go"], project, fake_llm.env("anthropic"))
    assert proc.returncode == 0, proc.stderr
    assert control_characters(proc.stderr) == [], proc.stderr
    err = proc.stderr.decode()
    line = next(x for x in err.splitlines() if "hostile" in x)
    assert line.startswith("mewcode: warning: MCP server 'hostile' exited during start-up: ")
    assert line.endswith(SHOWN_PAYLOAD)


def test_hook_output_is_shown_escaped_in_p(
    fake_llm, project: Path, mewcode_home: Path, tmp_path: Path
) -> None:
    write_hostile_hooks(mewcode_home / "settings.yaml", tmp_path)
    fake_llm.script([{"text": "never asked"}])
    proc = run(["-p", "go"], project, fake_llm.env("anthropic"))
    assert proc.returncode == 1  # the prompt was refused
    assert control_characters(proc.stderr) == [], proc.stderr
    err = proc.stderr.decode().splitlines()
    assert any(line.startswith("mewcode: warning: note " + SHOWN) for line in err), err
    assert any("exited 1: broke " + SHOWN in line for line in err), err
    assert any("refused " + SHOWN in line and "blocked" in line for line in err), err
    assert fake_llm.requests == []  # the refused prompt never reached the model
