"""The prompts typed in a project come back after a restart (↑/↓), and Ctrl+R searches them."""

from __future__ import annotations

from mewcode_tui.screens.history_search import HistorySearchScreen
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_input import ready


async def send(pilot, screen, runtime, text: str) -> None:
    await pilot.press(*text, "enter")
    await wait_until(pilot, lambda: not screen.turn_active and runtime.prompts[-1:] == [text])


async def test_prompts_sent_before_a_restart_come_back_with_up(make_app, project):
    first = FakeRuntime(project)
    app = make_app(first)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        for text in ("explain the parser", "now fix it"):
            await send(pilot, screen, first, text)

    again = make_app(FakeRuntime(project))
    async with again.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, again)
        await pilot.press("up")
        assert screen.prompt.text == "now fix it"
        await pilot.press("up")
        assert screen.prompt.text == "explain the parser"
        await pilot.press("down", "down")
        assert screen.prompt.text == ""


async def test_ctrl_r_finds_an_older_prompt_and_enter_puts_it_in_the_prompt(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        for text in ("run the tests", "explain the parser", "add a test for parse_args"):
            await send(pilot, screen, runtime, text)
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: isinstance(app.screen, HistorySearchScreen))
        search = app.screen
        assert search.found[0] == "add a test for parse_args"  # newest first
        await pilot.press(*"test")
        assert search.found == ["add a test for parse_args", "run the tests"]
        await pilot.press("ctrl+r")  # again: the next older match
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.prompt.text == "run the tests"
        assert runtime.prompts[-1] == "add a test for parse_args"  # put, not sent
        assert screen.prompt.has_focus


async def test_esc_leaves_the_search_and_the_prompt_as_it_was(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        await send(pilot, screen, runtime, "an old prompt")
        await pilot.press(*"draft", "ctrl+r")
        await wait_until(pilot, lambda: isinstance(app.screen, HistorySearchScreen))
        assert app.screen.found == []  # "draft" is the query, and nothing holds it
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.prompt.text == "draft"
