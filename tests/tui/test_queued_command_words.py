"""A slash command's prompt queued behind a running turn keeps the words the user typed."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.usage import Usage
from mewcode_tui.transcript import UserEntry
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_session_commands import command


async def test_a_queued_init_shows_and_is_sent_as_typed(make_app, project):
    gate = asyncio.Event()

    async def slow(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await gate.wait()
        await send(ev.AssistantMessage(content=[], usage=Usage()))

    runtime = FakeRuntime(project, [slow])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"first", "enter")
        await wait_until(pilot, lambda: screen.turn_active)
        await command(pilot, screen, "/init")
        await wait_until(pilot, lambda: len(screen.pending) == 1)
        gate.set()
        await wait_until(pilot, lambda: len(runtime.prompts) == 2 and not screen.turn_active)
        users = [e.text for e in screen.transcript.entries if isinstance(e, UserEntry)]
        assert users == ["first", "/init "]
        assert runtime.prompts[1].startswith("Analyse this codebase")
        assert runtime.typed == ["", "/init "]  # kept for the session file (a resume)
