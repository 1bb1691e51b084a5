"""While the session opens, the TUI builds the provider's client and readies the answer views."""

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


async def one_turn_with(options, project, provider: WarmableProvider, answer: str):
    """Open a session with ``provider``, run one turn; returns the finished screen."""
    runtime = FakeRuntime(project, [plain_answer(answer)])
    app = MewCodeApp(options, provider=provider, opener=opener_for(runtime), clock=lambda: 1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready and provider.warmed == 1)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
    return screen


async def test_the_provider_is_warmed_once_when_the_session_opens(options, project):
    provider = WarmableProvider()
    await one_turn_with(options, project, provider, "hi")
    assert provider.warmed == 1


async def test_a_failed_warm_up_is_logged_not_shown(options, project):
    screen = await one_turn_with(options, project, WarmableProvider(fails=True), "still works")
    levels = [getattr(e, "level", None) for e in screen.transcript.entries]
    assert "error" not in levels and "warning" not in levels
    assert screen.transcript.entries[-1].text == "still works"


async def test_answer_views_are_styled_before_the_session_is_ready(make_app, project):
    from mewcode_tui.widgets.assistant_view import AssistantMessageView, AssistantTextView

    runtime = FakeRuntime(project, [plain_answer("hi")])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        # The Markdown blocks' CSS is parsed already (the first answer does not wait
        # for it), and the hidden sample views are gone.
        styled = {class_var.split(".")[0] for _, class_var in app.stylesheet.source}
        assert {"MarkdownFence", "MarkdownTable", "MarkdownBulletList"} <= styled
        assert not screen.query(AssistantMessageView) and not screen.query(AssistantTextView)
        assert screen.chat.children  # the welcome notice: nothing else was touched
