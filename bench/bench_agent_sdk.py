"""The Claude Agent SDK driving `mewcode` (docs/manual.md#claude-agent-sdk): one `query()`.

One run, in alternation, with a temporary MEWCODE_HOME: the SDK's `query()` with a
two-round scripted Read task, `cli_path` pointing at the installed `mewcode`, through a
warm preload server against the same with MEWCODE_PRELOAD=0 (every query starts cold).
SDK users report seconds of start-up per `query()` with Claude Code; warm, ours should be
a fraction of the cold figure (target <= 0.5x, the SDK's own start-up included in both).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_preload import wait_for_server
from bench.common import info, median, report

ROOT = Path(__file__).resolve().parent.parent
MEWCODE = Path(sys.executable).with_name("mewcode")
ROUNDS = 7


def _steps() -> list[dict]:
    return [
        {"text": "Reading.", "tool_calls": [{"name": "Read", "input": {"file_path": "notes.txt"}}]},
        {"text": "Done."},
    ]


async def _query(project: Path, env: dict[str, str]) -> str:
    from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

    options = ClaudeAgentOptions(cli_path=str(MEWCODE), cwd=str(project), env=env)
    result = ""
    async for message in query(prompt="read notes.txt", options=options):
        if isinstance(message, ResultMessage):
            result = message.result or ""
    return result


def _timed(server, project: Path, env: dict[str, str]) -> float:
    server.script(_steps())
    started = time.perf_counter()
    result = asyncio.run(_query(project, {**env, **server.env("anthropic")}))
    elapsed = time.perf_counter() - started
    assert "Done." in result, f"the query did not finish the task: {result!r}"
    return elapsed


def main() -> bool:
    try:
        import claude_agent_sdk  # noqa: F401
    except ImportError:
        print("agent_sdk: skipped: claude-agent-sdk is not installed (make test installs it)")
        return True
    if not MEWCODE.is_file():
        print(f"agent_sdk: skipped: no {MEWCODE} (run make install)")
        return True
    from tests.fakellm import FakeLLMServer

    with tempfile.TemporaryDirectory() as tmp, FakeLLMServer() as server:
        root = Path(tmp)
        project = root / "project"
        project.mkdir()
        (project / "notes.txt").write_text("a line of notes\n" * 50)
        env = {**os.environ, "MEWCODE_HOME": str(root / "home")}
        env.pop("MEWCODE_PRELOAD", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(root / "pycache")
        cold = {**env, "MEWCODE_PRELOAD": "0"}
        times: dict[str, list[float]] = {"warm": [], "cold": []}
        try:
            _timed(server, project, env)  # writes .pyc and starts the server
            wait_for_server(env)  # the server the first, cold run started
            for round_ in range(ROUNDS + 1):  # the first round is untimed
                pairs = [("warm", env), ("cold", cold)]
                for name, chosen in pairs if round_ % 2 else pairs[::-1]:
                    elapsed = _timed(server, project, chosen)
                    if round_:
                        times[name].append(elapsed)
        finally:
            subprocess.run(
                [str(MEWCODE), "preload", "stop"], env=env, capture_output=True, timeout=60
            )
    info("agent SDK query(), warm preload server", median(times["warm"]), "s")
    return report(
        "agent SDK query() (two rounds), warm",
        median(times["warm"]),
        median(times["cold"]),
        0.5,
        baseline_name="MEWCODE_PRELOAD=0",
    )


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
