"""Esc during a running command tells the model the truth (issue 12, item 3)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.messages import ToolResultBlock
from agent_core.permissions.cli_rules import cli_rules
from tests.helpers.scripted import ScriptedProvider, Step


async def until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait for ``condition`` (a witness file the command writes), failing after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        await asyncio.sleep(0.02)


async def test_a_cancelled_command_is_reported_as_interrupted_with_its_output(
    paths, project
) -> None:
    witness = project / "printed"
    calls = [
        ("b1", "Bash", {"command": f"echo first-line-out; touch {witness}; sleep 30"}),
        ("b2", "Bash", {"command": "touch second-ran"}),
    ]
    provider = ScriptedProvider([Step(calls=calls), Step(text="understood")])
    rt = await Runtime.open(
        RuntimeOptions(
            cwd=project,
            paths=paths,
            settings=load_settings(paths),
            provider=provider,
            cli_rules=cli_rules(["Bash"]),
        )
    )
    turn = asyncio.create_task(rt.run_turn("run both", None))
    await until(witness.exists)
    rt.cancel()
    done = await asyncio.wait_for(turn, 20)
    assert done.stop_reason == "cancelled"

    await rt.run_turn("what happened?", None)
    sent = provider.requests[-1].messages
    results = {b.tool_use_id: b for m in sent for b in m.content if isinstance(b, ToolResultBlock)}
    first = results["b1"]
    assert isinstance(first.content, str) and first.is_error
    assert first.content.startswith("Interrupted by the user after ")
    assert " s. Output so far:\nfirst-line-out" in first.content
    assert "not run" not in first.content
    # The second call never started: that one, and only that one, is "not run".
    assert results["b2"].content == "not run: cancelled by user"
    assert not (project / "second-ran").exists()
    await rt.close()
