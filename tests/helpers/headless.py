"""Run `mewcode -p` against the fake LLM with a scripted list of Bash calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from mewcode_tui.cli import main

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]


def bash_calls(*commands: str, background: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """One model round calling Bash once per command (in order), then a final answer."""
    calls = [
        {"id": f"b{i}", "name": "Bash", "input": {"command": command}}
        for i, command in enumerate(commands)
    ]
    calls += [
        {
            "id": f"bg{i}",
            "name": "Bash",
            "input": {"command": command, "run_in_background": True},
        }
        for i, command in enumerate(background)
    ]
    return [{"tool_calls": calls}, {"text": "done"}]


def headless_in_process(
    args: list[str], env: dict[str, str], project: Path, monkeypatch, capsys
) -> tuple[int, dict[str, Any], str]:
    """``mewcode -p ... --output-format json`` run through ``main``; (exit code, result, stderr)."""
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code = main([*args, "--output-format", "json", "--cwd", str(project)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def run_bash_calls(
    fake_llm,
    project: Path,
    monkeypatch,
    capsys,
    commands: list[str],
    mode: str,
    *flags: str,
    final: Any = None,
) -> dict[str, Any]:
    """One `mewcode -p` run in ``mode`` whose model calls Bash once per command, in one round."""
    calls = [
        {"id": f"b{i}", "name": "Bash", "input": {"command": c}} for i, c in enumerate(commands)
    ]
    fake_llm.script([{"tool_calls": calls}, final or {"text": "done"}])
    code, result, err = headless_in_process(
        ["-p", "go", "--permission-mode", mode, *flags],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    return result


def headless_process(
    args: list[str], env: dict[str, str], project: Path, timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    """The real `mewcode -p` in its own process (for what must outlive or die with it)."""
    return subprocess.run(
        [*MEWCODE, *args, "--output-format", "json", "--cwd", str(project)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def processes_with(marker: str) -> list[int]:
    """PIDs whose command line contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(int(entry))
    return found
