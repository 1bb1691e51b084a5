"""The TUI builds the provider's client while the session opens, not on the first turn."""

from __future__ import annotations

from mewcode_tui.app import MewCodeApp
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime, opener_for, plain_answer


class WarmableProvider:
    name, model = "fake", "fake-model"

    def __init__(self, fails: bool = False) -> None:
        self.warmed = 0
        self.fails = fails

    async def warm(self) -> None:
        self.warmed += 1
        if self.fails:
            raise OSError("no CA bundle")


async def test_the_provider_is_warmed_once_when_the_session_opens(options, project):
    provider = WarmableProvider()
    runtime = FakeRuntime(project, [plain_answer("hi")])
    app = MewCodeApp(options, provider=provider, opener=opener_for(runtime), clock=lambda: 1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.runtime is not None and provider.warmed == 1)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
        assert provider.warmed == 1


async def test_a_failed_warm_up_is_logged_not_shown(options, project):
    provider = WarmableProvider(fails=True)
    runtime = FakeRuntime(project, [plain_answer("still works")])
    app = MewCodeApp(options, provider=provider, opener=opener_for(runtime), clock=lambda: 1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.runtime is not None and provider.warmed == 1)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
        levels = [getattr(e, "level", None) for e in screen.transcript.entries]
        assert "error" not in levels and "warning" not in levels
        assert screen.transcript.entries[-1].text == "still works"
