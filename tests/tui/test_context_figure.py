"""The status bar, /status and /context show one context figure (the real runtime's)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import wait_until
from tests.tui.test_session_commands import (
    SUMMARY,
    command,
    notices,
    saved_session,
    started,
    wait_for_notice,
)

EXCHANGES = [(f"step {i}: " + "explain the code " * 40, "Explained. " * 60) for i in range(6)]


async def said(pilot, screen, text: str, start: str) -> str:
    """Run a command and return the notice it adds (one starting with ``start``)."""
    before = len(notices(screen))
    await command(pilot, screen, text)
    await wait_until(pilot, lambda: any(n.startswith(start) for n in notices(screen)[before:]))
    return next(n for n in notices(screen)[before:] if n.startswith(start))


async def figures(pilot, screen) -> tuple[int, int, int]:
    """The context figure as the status bar, /status and /context show it."""
    status = await said(pilot, screen, "/status", "Session ")
    context = await said(pilot, screen, "/context", "Context: about")
    said_status = re.search(r"Context ([\d,]+) of", status)
    said_context = re.search(r"Context: about ([\d,]+) of", context)
    assert said_status and said_context, (status, context)
    return (
        screen.status.context_tokens,
        int(said_status.group(1).replace(",", "")),
        int(said_context.group(1).replace(",", "")),
    )


@pytest.mark.slow
async def test_status_bar_status_and_context_agree_after_a_turn_compact_and_resume(options, paths):
    from tests.tui.test_session_commands import real_app

    first = saved_session(paths, EXCHANGES, mtime=1_000_000)
    other = saved_session(paths, EXCHANGES[:2], mtime=1_000_100)
    # Scripted usage is 10 prompt tokens a request: far from a character estimate, so a
    # figure taken from the provider's count and one estimated from text cannot agree by luck.
    provider = ScriptedProvider([Step(text="Sure, done."), Step(text=SUMMARY)])
    app = real_app(replace(options, resume_id=first), provider)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await pilot.press(*"one more question", "enter")
        await wait_until(pilot, lambda: len(provider.requests) == 1 and not screen.turn_active)
        after_turn = await figures(pilot, screen)
        assert len(set(after_turn)) == 1, after_turn

        await command(pilot, screen, "/compact")
        await wait_for_notice(pilot, screen, "Compacted:")
        after_compact = await figures(pilot, screen)
        assert len(set(after_compact)) == 1, after_compact
        assert after_compact[0] < after_turn[0] or after_turn[0] < 100

        await command(pilot, screen, f"/resume {other}")
        await wait_until(
            pilot, lambda: any(n.startswith("Resumed session") for n in notices(screen))
        )
        after_resume = await figures(pilot, screen)
        assert len(set(after_resume)) == 1, after_resume
        assert after_resume != after_compact
