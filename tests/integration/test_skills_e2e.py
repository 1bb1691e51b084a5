"""Skills end to end through `mewcode -p` and the fake LLM server (docs/configuration.md#skills)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MEWCODE = [sys.executable, "-m", "mewcode_tui.cli"]

SKILL = """---
name: release-notes
description: Draft release notes for a new version of the project from its changelog.
tags: [release, changelog]
---
# Release notes

Follow the checklist in checklist.md beside this file, step by step.
"""


def system_text(body: dict) -> str:
    system = body.get("system")
    if isinstance(system, list):
        return "\n".join(block["text"] for block in system)
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "system")


def run_p(prompt: str, fake_llm, wire: str, project: Path, home: Path) -> list[dict]:
    env = {**os.environ, **fake_llm.env(wire), "MEWCODE_HOME": str(home)}
    proc = subprocess.run(
        [*MEWCODE, "-p", prompt, "--output-format", "stream-json", "--cwd", str(project)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
def test_index_then_skill_then_body_after_results_then_a_file_beside_it(
    wire: str, fake_llm, project: Path, mewcode_home: Path
) -> None:
    folder = mewcode_home / "skills" / "release-notes"  # a user skill: outside the project
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL)
    checklist = folder / "checklist.md"
    checklist.write_text("1. bump the version\n2. list the fixes\n")
    fake_llm.script(
        [
            {"tool_calls": [{"id": "t1", "name": "Skill", "input": {"name": "release-notes"}}]},
            {"tool_calls": [{"id": "t2", "name": "Read", "input": {"file_path": str(checklist)}}]},
            {"text": "done"},
        ]
    )
    lines = run_p("please draft the release notes for 2.0", fake_llm, wire, project, mewcode_home)
    assert lines[-1]["subtype"] == "success" and lines[-1]["result"] == "done"
    assert "Skill" in lines[0]["tools"]
    first, second, third = (r.body for r in fake_llm.requests)
    # The index names the matching skill (and not the built-in one that does not match).
    index = system_text(first)
    assert "<skills>" in index and "- release-notes: Draft release notes" in index
    assert "commit-message" not in index
    # The body is not the Skill call's result: it follows the results in the next request.
    after = json.dumps(second["messages"][-3:] if wire == "openai" else second["messages"][-1])
    assert "Skill release-notes loaded" in after
    assert after.index("Skill release-notes loaded") < after.index("Follow the checklist")
    assert str(folder) in after
    assert "Follow the checklist" not in json.dumps(first)
    # The file beside SKILL.md was read without asking (headless would have denied an ask).
    results = [
        block
        for line in lines
        if line["type"] == "user"
        for block in line["message"]["content"]
        if block.get("type") == "tool_result"
    ]
    assert [r["is_error"] for r in results] == [False, False]
    assert "bump the version" in json.dumps(third) and lines[-1]["permission_denials"] == []
    # Sent once: the request after the Read does not carry the body again.
    assert json.dumps(third).count("Follow the checklist") == 1


def test_a_prompt_that_matches_nothing_gets_no_index(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    fake_llm.script([{"text": "hi"}])
    run_p("hello there", fake_llm, "anthropic", project, mewcode_home)
    assert "<skills>" not in system_text(fake_llm.requests[0].body)


def test_an_unknown_skill_is_an_error_naming_the_installed_ones(
    fake_llm, project: Path, mewcode_home: Path
) -> None:
    fake_llm.script(
        [{"tool_calls": [{"id": "t1", "name": "Skill", "input": {"name": "nope"}}]}, {"text": "ok"}]
    )
    lines = run_p("go", fake_llm, "anthropic", project, mewcode_home)
    result = lines[2]["message"]["content"][0]
    assert result["is_error"] and "no skill named 'nope'" in json.dumps(result)
    assert "commit-message" in json.dumps(result)
