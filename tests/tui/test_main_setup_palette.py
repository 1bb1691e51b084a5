"""First run (no provider: the setup screen comes first) and the command palette."""

from __future__ import annotations

from textual.command import CommandList

from agent_core.config.settings import Settings
from mewcode_tui.app import MewCodeApp
from mewcode_tui.session_start import TuiOptions
from mewcode_tui.transcript import UserEntry
from tests.tui.conftest import session_started, wait_until


async def test_first_run_shows_setup_then_starts_the_demo(project, paths):
    from mewcode_tui.screens.setup import SetupScreen

    options = TuiOptions(cwd=project, paths=paths, settings=Settings())
    assert options.needs_setup
    app = MewCodeApp(options, clock=lambda: 0.0)
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert app.main_screen.starter.runtime is None
        await pilot.press("ctrl+d")  # the offline demo
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready, timeout=10)
        assert app.screen is screen
        assert screen.starter.runtime.provider.name == "demo"
        assert screen.status.model == "demo"


async def test_first_run_with_a_key_saves_the_provider(project, paths, monkeypatch):
    from mewcode_tui.screens.setup import SetupChoice, SetupScreen

    options = TuiOptions(cwd=project, paths=paths, settings=Settings())
    app = MewCodeApp(options, clock=lambda: 0.0)
    async with app.run_test(size=(100, 34)) as pilot:
        # Wait until the setup screen is fully mounted before answering it.
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, SetupScreen) and bool(app.screen.query("#methods")),
        )
        await pilot.pause()
        app.screen.dismiss(SetupChoice("anthropic", api_key="sk-ant-test-key"))
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready, timeout=15)
        assert screen.starter.runtime.provider.name == "anthropic"
        assert "provider: anthropic" in paths.user_settings.read_text()
        assert "sk-ant-test-key" not in paths.user_settings.read_text()


def highlighted_command(app) -> str:
    """The text of the command palette's highlighted line ("" if none yet)."""
    commands = app.screen.query_one(CommandList)
    if commands.highlighted is None:
        return ""
    return str(commands.get_option_at_index(commands.highlighted).prompt)


async def test_palette_lists_slash_commands_and_runs_them(options):
    # The real runtime, so the mode the palette sets is the one the session enforces.
    from tests.helpers.scripted import ScriptedProvider
    from tests.tui.test_main_real_runtime import make_real_app
    from tests.tui.test_palette_theme import search_palette

    app = make_real_app(options, ScriptedProvider([]))
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press("ctrl+p")
        # "cost", not "/cost": typed into the prompt it would be sent to the model.
        shown = await search_palette(pilot, app, "cost")
        assert any(line.startswith("/cost") for line in shown), shown
        await wait_until(pilot, lambda: highlighted_command(app).startswith("/cost"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Cost this session" in str(screen.transcript.last))
        assert app.screen is screen and screen.prompt.text == ""
        assert not [e for e in screen.transcript.entries if isinstance(e, UserEntry)]

        # A screen action: the mode changes in the status bar and in the session.
        assert screen.starter.runtime.mode == "default"
        await pilot.press("ctrl+p")
        await search_palette(pilot, app, "cycle mode")
        await wait_until(pilot, lambda: highlighted_command(app).startswith("Cycle permission"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.starter.runtime.mode == "acceptEdits")
        assert screen.status.mode == "acceptEdits" and screen.prompt.text == ""
