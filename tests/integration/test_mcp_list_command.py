"""`mewcode mcp list` in its own process against real stdio servers made with the SDK."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers.headless import MEWCODE

# Two tools and a prompt; it writes its pid so the test can see it stopped.
SERVER = """
import os, sys
from mcp.server.mcpserver import MCPServer

open(sys.argv[1], "w").write(str(os.getpid()))
app = MCPServer("notes")

@app.tool()
def search(query: str) -> str:
    return query

@app.tool()
def count() -> int:
    return 3

@app.prompt()
def summarise(topic: str) -> str:
    return topic

app.run()
"""
DIES = "import sys; sys.stderr.write('cannot open the notes database\\n'); sys.exit(3)"


def write_config(file: Path, servers: dict) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"mcpServers": servers}))


def mcp_list(project: Path, *flags: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MEWCODE, "mcp", *flags, "--cwd", str(project)],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def row(out: str, name: str) -> list[str]:
    return next(line.split() for line in out.splitlines() if line.split()[:1] == [name])


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/status").read_text().count("zombie") > 0


def test_lists_each_server_with_its_state_tools_and_error(project, mewcode_home, tmp_path):
    script = tmp_path / "notes_server.py"
    script.write_text(SERVER)
    pid_file = tmp_path / "notes.pid"
    write_config(
        mewcode_home / "mcp.json",
        {
            "notes": {"command": sys.executable, "args": [str(script), str(pid_file)]},
            "broken": {"command": sys.executable, "args": ["-c", DIES]},
        },
    )
    write_config(project / ".mcp.json", {"repo": {"command": sys.executable, "args": ["-V"]}})
    proc = mcp_list(project, "list")
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr  # a server failed
    out = proc.stdout
    assert out.splitlines()[0].split() == [
        "NAME", "TRANSPORT", "SCOPE", "STATUS", "TOOLS", "FILE", "TARGET"
    ]  # fmt: skip
    notes = row(out, "notes")
    assert notes[:5] == ["notes", "stdio", "user", "connected", "2"] and "+prompts" in notes
    assert str(script) in out  # the command line it runs
    assert row(out, "broken")[:5] == ["broken", "stdio", "user", "failed", "-"]
    lines = out.splitlines()
    error = next(lines[i + 1] for i, line in enumerate(lines) if line.startswith("broken "))
    assert error.startswith("    error: ") and "cannot open the notes database" in error, out
    # An untrusted project's server is listed, never started.
    assert row(out, "repo")[:4] == ["repo", "stdio", "project", "needs"]
    assert "run mewcode in this project and trust it, or --trust-project" in out
    # Every server was stopped before the command returned.
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 15
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid)


def test_trust_project_starts_the_projects_servers(project, tmp_path):
    script = tmp_path / "notes_server.py"
    script.write_text(SERVER)
    write_config(
        project / ".mcp.json",
        {"notes": {"command": sys.executable, "args": [str(script), str(tmp_path / "p")]}},
    )
    proc = mcp_list(project, "list", "--trust-project")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert row(proc.stdout, "notes")[:5] == ["notes", "stdio", "project", "connected", "2"]
    assert mcp_list(project, "list").returncode == 0  # untrusted: waits, nothing failed


def test_no_servers_problems_and_usage(project, mewcode_home):
    proc = mcp_list(project, "list")
    assert (proc.returncode, proc.stdout) == (
        0,
        "No MCP servers configured (~/.mewcode/mcp.json, .mcp.json)\n",
    )
    (mewcode_home / "mcp.json").write_text('{"mcpServers": {"a__b": {"command": "x"}}}')
    proc = mcp_list(project, "list")
    assert proc.returncode == 1
    assert proc.stderr.startswith("mewcode: warning: ") and "a__b" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    for argv in ([], ["lst"]):
        proc = mcp_list(project, *argv)
        assert proc.returncode == 2 and proc.stderr.startswith("mewcode: usage: mewcode mcp list")
