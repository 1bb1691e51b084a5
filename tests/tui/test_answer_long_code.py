"""A code block with a line wider than the terminal shows the whole line, wrapped."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.usage import Usage
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_tools import screen_lines

# 150 characters; "ж" appears nowhere else on screen, so counting it shows what is cut.
CODE_LINE = "z = 1  # " + "ж" * 130 + " line-end"
ANSWER = f"Here it is:\n\n```python\n{CODE_LINE}\n```\n\nDone."


def held_answer(release: asyncio.Event):
    """Streams the answer, then waits for ``release`` before the message ends."""

    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.Status(phase="streaming"))
        for i in range(0, len(ANSWER), 16):
            await send(ev.MessageDelta(text=ANSWER[i : i + 16]))
        await release.wait()
        await send(ev.AssistantMessage(content=[{"type": "text", "text": ANSWER}], usage=Usage()))

    return script


def code_shown(app) -> int:
    return "".join(screen_lines(app)).count("ж")


async def test_a_long_code_line_wraps_while_streaming_and_when_finished(make_app, project):
    release = asyncio.Event()
    runtime = FakeRuntime(project, [held_answer(release)])
    app = make_app(runtime)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"show me", "enter")
        # Streaming (Textual's Markdown view): the whole line, wrapped.
        await wait_until(pilot, lambda: "Done." in "".join(screen_lines(app)))
        await wait_until(pilot, lambda: code_shown(app) == 130)
        assert "line-end" in "".join(screen_lines(app))
        release.set()
        await wait_until(pilot, lambda: not screen.turn_active)
        # Finished (and re-rendered): still the whole line.
        await wait_until(pilot, lambda: code_shown(app) == 130)
        assert "line-end" in "".join(screen_lines(app))
