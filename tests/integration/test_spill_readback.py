"""A spilled output says "read it with Read": the agent may, and only for its own session."""

from __future__ import annotations

import json
import re

from tests.fakellm import last_tool_result_text
from tests.helpers.headless import headless_in_process

SAVED = re.compile(r"saved to (\S+) \(use Read")


def _read_back(tool: str):
    def step(body: dict) -> dict:
        path = SAVED.search(last_tool_result_text(body) or "").group(1)
        args = (
            {"file_path": path, "limit": 5}
            if tool == "Read"
            else {"pattern": "line 29999", "path": path, "output_mode": "content"}
        )
        return {"tool_calls": [{"id": "r1", "name": tool, "input": args}]}

    return step


def _seen(body: dict) -> dict:
    return {"text": "SAW:" + (last_tool_result_text(body) or "")}


def test_the_agent_reads_its_own_spill_file(fake_llm, project, monkeypatch, capsys) -> None:
    for tool in ("Read", "Grep"):
        fake_llm.script(
            [
                {
                    "tool_calls": [
                        {"id": "b1", "name": "Bash", "input": {"command": "seq -f 'line %g' 30000"}}
                    ]
                },
                _read_back(tool),
                _seen,
            ]
        )
        code, result, err = headless_in_process(
            ["-p", "count", "--allowedTools", "Bash(seq:*)"],
            fake_llm.env("anthropic"),
            project,
            monkeypatch,
            capsys,
        )
        assert code == 0, err
        assert not result["permission_denials"], result["permission_denials"]
        assert ("line 1" if tool == "Read" else "line 29999") in result["result"]


def test_another_sessions_spill_file_stays_out_of_reach(
    fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    fake_llm.script(
        [
            {"tool_calls": [{"id": "b1", "name": "Bash", "input": {"command": "seq 30000"}}]},
            {"text": "done"},
        ]  # fmt: skip
    )
    headless_in_process(
        ["-p", "one", "--allowedTools", "Bash(seq:*)"],
        fake_llm.env("anthropic"),
        project,
        monkeypatch,
        capsys,
    )
    other = next(mewcode_home.rglob("tool-results/bash-*.txt"))
    fake_llm.script(
        [
            {"tool_calls": [{"id": "r1", "name": "Read", "input": {"file_path": str(other)}}]},
            _seen,
        ]  # fmt: skip
    )
    code, result, _ = headless_in_process(
        ["-p", "two"], fake_llm.env("anthropic"), project, monkeypatch, capsys
    )
    assert code == 0
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Read"]
    assert "29999" not in json.dumps(result["result"])
