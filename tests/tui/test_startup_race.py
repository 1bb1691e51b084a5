"""A command typed while the session opens runs what was typed, never a stale completion.

Seen by users: `/hooks` or `/cost` pasted and sent within seconds of the first frame ran
`/clear`. The menu opened on `/` (or `/c`) highlights another command; the screen, busy in its
session-opened handler, had not yet seen the keys after it when Enter came, and Enter
picked the highlighted candidate.
"""

from __future__ import annotations

import asyncio

import pytest

from mewcode_tui.widgets.completion_menu import CompletionMenu
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime


async def held_until(predicate, timeout: float = 5.0) -> None:
    """Like wait_until, without waiting for the screen's queue (which the test holds)."""
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not reached in time")


def notices(screen) -> list[str]:
    return [getattr(e, "text", "") for e in screen.transcript.entries]


@pytest.mark.parametrize(
    ("first", "rest", "answer"),
    [("/", "hooks", "No hooks configured."), ("/c", "ost", "Cost this session")],
)
async def test_a_command_typed_while_the_screen_is_busy_opening_runs_not_clear(
    make_app, project, first, rest, answer
):
    runtime = FakeRuntime(project)
    opened, busy = asyncio.Event(), asyncio.Event()

    async def slow_open(_options, _provider) -> FakeRuntime:
        await opened.wait()
        return runtime

    app = make_app(runtime, opener=slow_open)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.is_mounted)
        load = screen.load_session_commands
        in_opening = asyncio.Event()

        async def slow_commands(session):
            in_opening.set()
            await busy.wait()  # the screen's handler holds its message queue meanwhile
            return await load(session)

        screen.load_session_commands = slow_commands
        menu = screen.query_one(CompletionMenu)
        await pilot.press(*first)
        await wait_until(pilot, lambda: menu.is_open)
        # The highlighted pick is some other command (`/add-dir` or `/clear` today).
        assert menu.selected is not None and menu.selected.value != first + rest
        opened.set()
        await held_until(in_opening.is_set)
        # Keys as the terminal sends them: pilot.press would wait for the held screen.
        try:
            await app._press_keys([*rest, "enter"])
            await held_until(lambda: screen.prompt.text == "")
        finally:
            busy.set()

        def answered() -> bool:
            return any(n.startswith(answer) for n in notices(screen))

        await wait_until(pilot, lambda: runtime.new_sessions > 0 or answered())
        assert answered(), notices(screen)
        assert runtime.new_sessions == 0
        assert not [n for n in notices(screen) if n.startswith("Started a new session")]


async def test_tab_on_a_menu_behind_the_keys_does_not_complete_its_stale_pick(make_app, project):
    never = asyncio.Event()  # the session never opens: the screen stays idle
    app = make_app(FakeRuntime(project), opener=lambda _o, _p: never.wait())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        menu = screen.query_one(CompletionMenu)
        await pilot.press("/")
        await wait_until(pilot, lambda: menu.is_open)
        hold = asyncio.Event()
        screen.call_later(hold.wait)  # the screen is busy: its queue waits behind this
        try:
            await app._press_keys([*"hoo", "tab"])
            await held_until(lambda: not menu.is_open)
            assert screen.prompt.text == "/hoo"
        finally:
            hold.set()
        await wait_until(pilot, lambda: menu.is_open and menu.query_shown.fragment == "hoo")
        await pilot.press("tab")
        assert screen.prompt.text == "/hooks "
