"""Ctrl+P offers one theme command, and a theme chosen through it is saved."""

from __future__ import annotations

from textual.command import CommandInput, CommandList, CommandPalette

from mewcode_tui.transcript import NoticeEntry
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime

GATHERING = CommandPalette._GATHER_COMMANDS_GROUP


def palette_settled(app, query: str) -> bool:
    """The palette on top shows every hit for ``query``: its search worker (started as the
    input changed, removed from the manager once done) has finished."""
    palette = app.screen
    if not isinstance(palette, CommandPalette) or palette.query_one(CommandInput).value != query:
        return False
    return not [w for w in app.workers if w.group == GATHERING and w.node is palette]


def shown_commands(app) -> list[str]:
    commands = app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]


def highlighted(app) -> str:
    commands = app.screen.query_one(CommandList)
    if commands.highlighted is None:
        return ""
    return str(commands.get_option_at_index(commands.highlighted).prompt)


async def search_palette(pilot, app, query: str) -> list[str]:
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*query)
    await pilot.pause()  # the input's Changed handler starts the search
    await wait_until(pilot, lambda: palette_settled(app, query))
    return shown_commands(app)


async def test_the_palette_offers_one_theme_command(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 34)) as pilot:
        await session_started(pilot, app)
        await pilot.press("ctrl+p")
        shown = await search_palette(pilot, app, "theme")
        themed = [line for line in shown if "theme" in line.lower()]
        assert len(themed) == 1 and themed[0].startswith("/theme"), shown


async def test_a_theme_chosen_in_the_palette_is_saved_and_comes_back(make_app, project, paths):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, app)
        assert app.theme != "mewcode-light"
        await pilot.press("ctrl+p")
        await search_palette(pilot, app, "theme")
        await wait_until(pilot, lambda: highlighted(app).startswith("/theme"))
        await pilot.press("enter")
        # The theme picker: a second palette listing the themes.
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, CommandPalette)
                and "mewcode-dark" in str(shown_commands(app))
            ),
        )
        await search_palette(pilot, app, "mewcode-light")
        await wait_until(pilot, lambda: highlighted(app) == "mewcode-light")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.theme == "mewcode-light")
        await wait_until(
            pilot,
            lambda: any(
                isinstance(e, NoticeEntry) and e.text == "Theme mewcode-light (saved)."
                for e in screen.transcript.entries
            ),
        )
        assert "theme: mewcode-light" in paths.user_settings.read_text()

    again = make_app(FakeRuntime(project))
    async with again.run_test(size=(100, 34)) as pilot:
        await session_started(pilot, again)
        assert again.theme == "mewcode-light"
