"""Fixtures for Pilot tests of the main screen."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest

from agent_core.config.settings import Settings
from mewcode_tui.app import MewCodeApp
from mewcode_tui.session_start import TuiOptions
from tests.tui.fakes import FakeRuntime, opener_for


@pytest.fixture
def options(project, paths) -> TuiOptions:
    return TuiOptions(cwd=project, paths=paths, settings=Settings(), provider_name="fake")


@pytest.fixture
def make_app(options) -> Callable[..., MewCodeApp]:
    """An app wired to a FakeRuntime (no provider, no SDK, fixed clock); ``opener=``
    replaces the one that hands ``runtime`` over at once (a slow start-up)."""

    def make(runtime: FakeRuntime, **kwargs) -> MewCodeApp:
        return MewCodeApp(
            options,
            provider=SimpleNamespace(name="fake", model="fake-model"),
            opener=kwargs.pop("opener", None) or opener_for(runtime),
            clock=kwargs.pop("clock", lambda: 1000.0),
            **kwargs,
        )

    return make


async def wait_until(pilot, predicate, timeout: float = 5.0) -> None:
    """Pump the app until ``predicate()`` holds (fails the test on timeout)."""
    steps = int(timeout / 0.02)
    for _ in range(steps):
        if predicate():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not reached in time")


def window_mounted(chat) -> bool:
    """Every transcript entry in the chat's window has a mounted view, in order."""
    entries = chat.transcript.entries[chat.first_mounted :]
    views = [chat.view(entry) for entry in entries]
    return all(v is not None and v.is_mounted for v in views) and list(chat.children) == views


async def session_started(pilot, app):
    """Wait until the session is open and the notices said as it opened are mounted.

    The welcome line is mounted by a worker after the runtime is set: a test that
    adds entries of its own before then races it. Returns the main screen.
    """
    screen = app.main_screen
    await wait_until(
        pilot,
        lambda: screen.session_ready and bool(screen.chat.children) and window_mounted(screen.chat),
    )
    return screen


async def past_key_guard(pilot, app) -> None:
    """Wait until the dialog on top has ended its key guard (a timer, late on a busy machine)."""
    dialog = app.screen
    await wait_until(pilot, lambda: not dialog.guarded)


async def run_one_turn(pilot, app, runtime, timeout: float = 5.0):
    """Send a prompt and wait for its turn to end; returns the main screen."""
    screen = await session_started(pilot, app)
    await pilot.press(*"go", "enter")
    await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active, timeout=timeout)
    await pilot.pause()
    return screen


async def ask_until_approval(pilot, app, prompt: str):
    """Send ``prompt`` and wait for the approval dialog it leads to; returns the main screen."""
    from mewcode_tui.screens.approval import ApprovalScreen

    screen = await session_started(pilot, app)
    await pilot.press(*prompt, "enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
    return screen


async def confirm_bypass(pilot, app) -> None:
    """Answer yes to /mode bypassPermissions' confirmation dialog."""
    from mewcode_tui.screens.confirm import ConfirmScreen

    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await past_key_guard(pilot, app)
    await pilot.press("y")
    await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
