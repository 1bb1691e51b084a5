"""Edits through the runtime: what is asked, what is checked before asking, a deleted project."""

from __future__ import annotations

import asyncio
import shutil

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.channel import RendezvousChannel
from agent_core.config.settings import load_settings
from tests.helpers.scripted import ScriptedProvider, Step


async def open_runtime(paths, project, steps: list[Step]) -> Runtime:
    return await Runtime.open(
        RuntimeOptions(
            cwd=project,
            paths=paths,
            settings=load_settings(paths),
            provider=ScriptedProvider(steps),
        )
    )


async def run(runtime: Runtime, answer: str = "allow_once") -> list[ev.Event]:
    """One turn; every approval is answered with ``answer``; the events it sent."""
    channel: RendezvousChannel = RendezvousChannel()
    seen: list[ev.Event] = []

    async def consume() -> None:
        async for event in channel:
            seen.append(event)
            if isinstance(event, ev.ApprovalRequested):
                runtime.answer_approval(event.approval_id, ev.ApprovalReply(answer))  # type: ignore[arg-type]
            if isinstance(event, ev.TurnCompleted):
                return

    consumer = asyncio.create_task(consume())
    await runtime.run_turn("go", channel)
    await consumer
    return seen


def results(seen: list[ev.Event]) -> dict[str, ev.ToolResult]:
    return {e.call_id: e for e in seen if isinstance(e, ev.ToolResult)}


async def test_write_into_a_deleted_project_fails_as_bash_does_and_makes_no_folder(
    paths, project
) -> None:
    write = {"file_path": "src/new.py", "content": "x = 1\n"}
    steps = [
        Step(calls=[("b1", "Bash", {"command": "pwd"})]),
        Step(text="ok"),
        Step(calls=[("w1", "Write", write), ("b2", "Bash", {"command": "touch x"})]),
        Step(text="ok"),
    ]
    runtime = await open_runtime(paths, project, steps)
    try:
        assert not results(await run(runtime))["b1"].is_error
        shutil.rmtree(project)  # the project folder is deleted mid-session
        done = results(await run(runtime))
    finally:
        await runtime.close()
    gone = f"working directory {project} does not exist"
    assert done["b2"].is_error and gone in done["b2"].content
    assert done["w1"].is_error and gone in done["w1"].content
    assert len(done["w1"].content.splitlines()) == 1
    assert not project.exists()
