"""MewCode's semantic colours come from the theme: a theme file restyles the status bar."""

from __future__ import annotations

import pytest
from rich.color import ColorTriplet
from textual.app import App

from mewcode_tui.theme_styles import SEMANTIC_COLORS, semantic_style
from mewcode_tui.themes import load_themes, save_theme
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_main_commands import start

PLAN_BLUE = ColorTriplet(0x12, 0x34, 0x56)


def segment_style(screen, text: str):
    """The style the status bar's first line draws ``text`` with, as it reaches the screen."""
    for segment in screen.status.render_line(0):
        if segment.text.strip() == text:
            return segment.style
    raise AssertionError(f"{text!r} not on the status bar's first line")


def write_theme(paths, body: str, file: str = "plan-blue.yaml") -> None:
    folder = paths.home / "themes"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / file).write_text(body)


async def test_a_theme_file_restyles_the_status_bar_mode(make_app, project, paths):
    write_theme(
        paths,
        "name: plan-blue\nprimary: '#F29E4C'\nvariables:\n  mode-plan: '#123456'\n",
    )
    save_theme(paths, "plan-blue")
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        screen.status.mode = "plan"
        await pilot.pause()
        style = segment_style(screen, "plan")
        assert style.color is not None and style.color.triplet == PLAN_BLUE
        assert style.bold  # the attribute stays, only the colour is the theme's

        app.theme = "mewcode-dark"  # switching back needs no restart
        await wait_until(pilot, lambda: segment_style(screen, "plan").color.triplet != PLAN_BLUE)
        color = segment_style(screen, "plan").color
        assert color.number == 6  # today's ANSI cyan, the default


async def test_the_default_theme_keeps_todays_status_colors(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        screen.status.mode = "acceptEdits"
        await pilot.pause()
        assert segment_style(screen, "acceptEdits").color.number == 2  # green
        screen.status.mode = "default"
        await pilot.pause()
        style = segment_style(screen, "default")
        assert style.bold  # bold in the widget's own colour, like plain text beside it
        assert style.color == segment_style(screen, "MCP 0").color


async def test_a_semantic_color_that_is_not_a_color_skips_the_theme(paths):
    write_theme(
        paths, "name: broken\nprimary: '#fff'\nvariables:\n  tool-ok: grean\n", "broken.yaml"
    )
    write_theme(
        paths, "name: fine\nprimary: '#fff'\nvariables:\n  text-muted: auto 50%\n", "f.yaml"
    )
    async with App().run_test() as pilot:
        warnings = load_themes(pilot.app, paths)
        assert len(warnings) == 1
        assert "broken.yaml" in warnings[0] and "variables.tool-ok: 'grean'" in warnings[0]
        assert "broken" not in pilot.app.available_themes
        assert "fine" in pilot.app.available_themes  # Textual's own variables are not ours to judge


async def test_semantic_style_defaults_apply_without_mewcode_app():
    async with App().run_test() as pilot:  # a bare App: no variables registered
        assert semantic_style(pilot.app, "tool-error").color.number == 1
        assert semantic_style(pilot.app, "tool-pending").color is None
        with pytest.raises(KeyError):
            semantic_style(pilot.app, "tool-okay")
    assert set(SEMANTIC_COLORS) >= {"tool-ok", "diff-added", "ctx-high", "warning-strong"}


async def test_css_can_use_the_semantic_variables(make_app, project):
    from textual.widgets import Static

    class ErrorLabel(Static):
        DEFAULT_CSS = "ErrorLabel { color: $tool-error; }"

    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start(pilot, app)
        label = ErrorLabel("done")
        await screen.mount(label)
        await pilot.pause()
        assert label.styles.color.ansi == 1  # ansi_red, the tool-error default
