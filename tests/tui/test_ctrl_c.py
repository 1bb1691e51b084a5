"""Ctrl+C: interrupts a running turn, clears a typed prompt, quits when pressed twice."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.config.settings import Settings
from mewcode_tui.app import MewCodeApp
from mewcode_tui.session_start import TuiOptions
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime


class SteppedClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_ctrl_c_cancels_a_running_turn_and_the_app_keeps_running(make_app, project):
    started = asyncio.Event()

    async def slow(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        started.set()
        await asyncio.Event().wait()  # runs until cancelled

    runtime = FakeRuntime(project, [slow])
    cancels = []
    real_cancel = runtime.cancel
    runtime.cancel = lambda: (cancels.append(True), real_cancel())[1]
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: started.is_set() and runtime.running)
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert cancels == [True]
        notices = [getattr(e, "text", "") for e in screen.transcript.entries]
        assert "Turn cancelled." in notices
        assert app.is_running and app.return_code is None
        await pilot.press(*"next", "enter")  # the session takes the next prompt
        await wait_until(pilot, lambda: runtime.prompts == ["go", "next"])


async def test_one_ctrl_c_on_an_idle_prompt_warns_and_a_second_quits(make_app, project):
    clock = SteppedClock()
    app = make_app(FakeRuntime(project), clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await session_started(pilot, app)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert any("again to quit" in str(n.message) for n in app._notifications)
        clock.now += 1.0
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: app.return_code is not None)
    assert app.return_value == 0


async def test_a_second_ctrl_c_after_the_window_only_warns_again(make_app, project):
    clock = SteppedClock()
    app = make_app(FakeRuntime(project), clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await session_started(pilot, app)
        await pilot.press("ctrl+c")
        clock.now += 5.0
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code is None
        clock.now += 0.5
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: app.return_code is not None)


async def test_ctrl_c_with_text_in_the_prompt_clears_it_and_does_not_quit(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"half a thought")
        await pilot.press("ctrl+c")
        assert screen.prompt.text == ""
        await pilot.press("ctrl+c")  # the first press on the empty prompt: a warning only
        await pilot.pause()
        assert app.return_code is None


async def test_ctrl_c_with_a_selection_in_the_prompt_copies_it(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"keep me")
        screen.prompt.select_all()
        copied = []
        app.copy_to_clipboard = copied.append
        await pilot.press("ctrl+c")
        assert copied == ["keep me"]
        assert screen.prompt.text == "keep me"


async def test_escape_on_the_setup_screen_is_a_quit_with_exit_code_0(project, paths):
    from mewcode_tui.screens.setup import SetupScreen

    options = TuiOptions(cwd=project, paths=paths, settings=Settings())
    app = MewCodeApp(options, clock=lambda: 0.0)
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, SetupScreen) and bool(app.screen.query("#methods")),
        )
        footer_keys = [b.binding.key for b in app.screen.active_bindings.values() if b.binding.show]
        assert "escape" in footer_keys  # the footer teaches it
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.return_code is not None)
    assert app.return_value == 0  # app_runner makes the result the process exit code
