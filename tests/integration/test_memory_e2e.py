"""A fact remembered in one `mewcode -p` session is recalled in the next (docs/configuration.md#long-term-memory)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agent_core.config.paths import MewcodePaths
from agent_core.memory.long_term import LongTermMemory

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]
FACT = "The staging DB is on port 5433"


def mewcode_p(prompt: str, env: dict[str, str], project: Path, *extra: str):
    return subprocess.run(
        [*MEWCODE, "-p", prompt, "--output-format", "json", "--cwd", str(project), *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def remember_step(fact: str) -> dict:
    call = {"id": "toolu_1", "name": "Remember", "input": {"fact": fact}}
    return {
        "text": "Noting it.",
        "tool_calls": [call],
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def system_of(body: dict) -> str:
    return json.dumps(body["system"], ensure_ascii=False)


def test_remembered_in_one_session_recalled_in_the_next(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    env = {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    fake_llm.script([remember_step(FACT), {"text": "I'll remember that."}])
    first = mewcode_p(
        "remember that the staging DB is on port 5433", env, project, "--allowedTools", "Remember"
    )
    assert first.returncode == 0, first.stderr
    result = fake_llm.requests[1].body["messages"][-1]["content"][0]
    assert "Remembered as memory #1 for this project" in json.dumps(result)
    assert FACT not in system_of(fake_llm.requests[0].body)  # nothing to recall yet

    fake_llm.script([{"text": "Port 5433."}])
    related = mewcode_p("which port is staging db on", env, project)
    assert related.returncode == 0, related.stderr
    assert f"- {FACT}" in system_of(fake_llm.requests[-1].body)

    fake_llm.script([{"text": "Leaves fall."}])
    unrelated = mewcode_p("write a haiku about autumn", env, project)
    assert unrelated.returncode == 0, unrelated.stderr
    assert "5433" not in system_of(fake_llm.requests[-1].body)


def test_without_an_allow_rule_headless_denies_it_and_stores_nothing(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    env = {**os.environ, **fake_llm.env("anthropic"), "MEWCODE_HOME": str(mewcode_home)}
    fake_llm.script([remember_step(FACT), {"text": "I could not store it."}])
    proc = mewcode_p("remember that the staging DB is on port 5433", env, project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["permission_denials"]
    memory = LongTermMemory(MewcodePaths(mewcode_home, project.resolve()))
    assert memory.listing() == []
