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


async def one_turn(
    paths, project, steps: list[Step], answer: str
) -> tuple[Runtime, list[ev.Event]]:
    """A runtime that runs one turn, every approval answered with ``answer``, then closes."""
    runtime = await open_runtime(paths, project, steps)
    try:
        return runtime, await run(runtime, answer)
    finally:
        await runtime.close()


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


def change(old: str, **more: object) -> dict[str, object]:
    return {"old_string": old, "new_string": "z", **more}


def edit(path: str, old: str, **more: object) -> dict[str, object]:
    return {"file_path": path, **change(old, **more)}


async def test_an_edit_that_cannot_apply_fails_before_anyone_is_asked(paths, project) -> None:
    (project / "read.py").write_text("x = 1\nx = 1\n")
    (project / "unread.py").write_text("y = 1\n")
    steps = [
        Step(calls=[("r1", "Read", {"file_path": "read.py"})]),
        Step(calls=[("e1", "Edit", edit("unread.py", "y = 1"))]),
        Step(calls=[("e2", "Edit", edit("read.py", "w = 1"))]),
        Step(calls=[("e3", "Edit", edit("read.py", "x = 1"))]),  # twice, replace_all false
        Step(
            calls=[
                ("m1", "MultiEdit", {"file_path": "read.py", "edits": [change("x = 1")]}),
                ("m2", "MultiEdit", {"file_path": "unread.py", "edits": [change("y = 1")]}),
            ]
        ),
        Step(calls=[("ok", "Edit", edit("read.py", "x = 1", replace_all=True))]),
        Step(text="done"),
    ]
    runtime, seen = await one_turn(paths, project, steps, "allow_once")
    asked = [e.call_id for e in seen if isinstance(e, ev.ApprovalRequested)]
    assert asked == ["ok"]  # only the edit that can apply is put to the user
    done = results(seen)
    assert done["e1"].content == "Edit failed: file has not been read yet: Read it first"
    assert done["e2"].content.startswith("Edit failed: old_string not found in read.py")
    assert done["e3"].content.startswith("Edit failed: old_string occurs 2 times in read.py")
    assert done["m1"].content.startswith(
        "MultiEdit failed: edit 1 of 1: old_string occurs 2 times in read.py"
    )
    assert done["m2"].content == "MultiEdit failed: file has not been read yet: Read it first"
    assert all(done[c].is_error for c in ("e1", "e2", "e3", "m1", "m2"))
    assert not done["ok"].is_error and (project / "read.py").read_text() == "z\nz\n"
    assert (project / "unread.py").read_text() == "y = 1\n"


async def test_a_file_changed_while_the_user_decides_still_fails_when_the_edit_runs(
    paths, project
) -> None:
    target = project / "a.py"
    target.write_text("x = 1\n")
    edit = {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}
    steps = [Step(calls=[("r1", "Read", {"file_path": "a.py"})])]
    steps += [Step(calls=[("e1", "Edit", edit)]), Step(text="ok")]
    runtime = await open_runtime(paths, project, steps)
    channel: RendezvousChannel = RendezvousChannel()
    seen: list[ev.Event] = []

    async def consume() -> None:
        async for event in channel:
            seen.append(event)
            if isinstance(event, ev.ApprovalRequested):  # the precheck passed: it asks
                target.write_text("x = 1  # changed meanwhile\n")
                runtime.answer_approval(event.approval_id, ev.ApprovalReply("allow_once"))
            if isinstance(event, ev.TurnCompleted):
                return

    consumer = asyncio.create_task(consume())
    try:
        await runtime.run_turn("go", channel)
        await consumer
    finally:
        await runtime.close()
    result = results(seen)["e1"]
    assert result.is_error and "changed on disk since it was read" in result.content
    assert target.read_text() == "x = 1  # changed meanwhile\n"


async def test_allow_all_edits_this_session_switches_to_accept_edits_so_the_next_file_is_not_asked(
    paths, project
) -> None:
    write = lambda name: {"file_path": name, "content": f"{name}\n"}  # noqa: E731
    steps = [
        Step(calls=[("w1", "Write", write("a.txt"))]),
        Step(calls=[("w2", "Write", write("b.txt"))]),  # another file: not asked
        Step(calls=[("b1", "Bash", {"command": "touch c.txt"})]),  # Bash still asks
        Step(text="ok"),
    ]
    runtime, seen = await one_turn(paths, project, steps, "allow_session")
    asked = [e for e in seen if isinstance(e, ev.ApprovalRequested)]
    assert [(a.call_id, a.session_grant) for a in asked] == [
        ("w1", "accept_edits"),
        ("b1", "rules"),
    ]
    assert [e for e in seen if isinstance(e, ev.ModeChanged)] == [ev.ModeChanged("acceptEdits")]
    assert runtime.mode == "acceptEdits"
    assert (project / "a.txt").exists() and (project / "b.txt").exists()
    # Bash keeps its per-command session rule; the edit granted no per-file rule.
    assert [r.rule for r in runtime.rules() if r.source == "session"] == ["Bash(touch:*)"]


async def test_an_edit_accept_edits_would_still_ask_about_keeps_the_per_rule_session_grant(
    paths, project
) -> None:
    steps = [Step(calls=[("w1", "Write", {"file_path": ".git/config", "content": "x\n"})])]
    runtime, seen = await one_turn(paths, project, [*steps, Step(text="ok")], "deny")
    [asked] = [e for e in seen if isinstance(e, ev.ApprovalRequested)]
    assert asked.session_grant == "rules" and runtime.mode == "default"
