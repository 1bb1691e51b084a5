"""MCP start-up cost (issue 13): `mewcode -p` and the UI's first paint, with three
configured stdio servers against none, measured in alternation in one run.

1. Headless: a two-round Read task through `mewcode -p` against the fake LLM
   server. The servers' tools were cached by an earlier run (untimed warm-up),
   so a run whose model calls no MCP tool starts no server (target <= 1.1x).
2. First paint: the TUI's first frame with the same three servers configured;
   they start after the first frame (target <= 1.1x).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_tui import FIRST_PAINT_CHILD, seconds_until_printed
from bench.common import median, report

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ("alpha", "beta", "gamma")
SERVER_SCRIPT = '''
from mcp.server.mcpserver import MCPServer

server = MCPServer("bench")


@server.tool()
def echo(text: str) -> str:
    """Return the text."""
    return text


server.run("stdio")
'''


def _steps() -> list[dict]:
    return [
        {"text": "Reading.", "tool_calls": [{"name": "Read", "input": {"file_path": "notes.txt"}}]},
        {"text": "Done."},
    ]


def _configure(home: Path, script: Path) -> None:
    servers = {name: {"command": sys.executable, "args": [str(script)]} for name in SERVERS}
    home.mkdir(parents=True, exist_ok=True)
    (home / "mcp.json").write_text(json.dumps({"mcpServers": servers}))


def _headless(server, project: Path, home: Path) -> None:
    server.script(_steps())
    env = {**os.environ, **server.env("anthropic"), "MEWCODE_HOME": str(home),
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "mewcode_tui.cli", "-p", "read notes.txt", "--cwd", str(project)],
        env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip


def main() -> bool:
    from tests.fakellm import FakeLLMServer

    with tempfile.TemporaryDirectory() as tmp, FakeLLMServer() as server:
        root = Path(tmp)
        project = root / "project"
        project.mkdir()
        (project / "notes.txt").write_text("a line of notes\n" * 50)
        script = root / "server.py"
        script.write_text(SERVER_SCRIPT)
        plain, with_mcp = root / "home-plain", root / "home-mcp"
        plain.mkdir()
        _configure(with_mcp, script)
        runs = {"plain": plain, "mcp": with_mcp}
        times: dict[str, list[float]] = {name: [] for name in runs}
        for round_ in range(6):  # the first round is untimed: it writes caches and .pyc files
            for name, home in runs.items():
                started = time.perf_counter()
                _headless(server, project, home)
                if round_:
                    times[name].append(time.perf_counter() - started)
        ok = report(
            "mewcode -p with 3 MCP servers",
            median(times["mcp"]),
            median(times["plain"]),
            1.1,
            baseline_name="no MCP server",
        )
        paint: dict[str, list[float]] = {name: [] for name in runs}
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        for _ in range(7):
            for name, home in runs.items():
                args = [sys.executable, "-c", FIRST_PAINT_CHILD, str(project), str(home)]
                paint[name].append(
                    seconds_until_printed(args, {**env, "MEWCODE_HOME": str(home)}, project)
                )
        ok = (
            report(
                "TUI first paint with 3 MCP servers",
                median(paint["mcp"][1:]),
                median(paint["plain"][1:]),
                1.1,
                baseline_name="no MCP server",
            )
            and ok
        )
    return ok
