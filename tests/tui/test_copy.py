"""Selecting text in the chat copies it: a system copy command, else OSC 52 (docs/manual.md#the-full-screen-ui)."""

from __future__ import annotations

import sys

import pytest

from mewcode_tui.transcript import AssistantEntry
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime, plain_answer

ANSWER = "# Title\n\nHello **world**, this is a test.\n\n- one\n- two\n"


async def select_in_finished_answer(app, pilot, runtime):
    """Stream the answer, show it as a finished view, and drag over its first words."""
    screen = app.main_screen
    await wait_until(pilot, lambda: screen.session_ready)
    await pilot.press(*"hi", "enter")
    await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
    entry = next(e for e in screen.transcript.entries if isinstance(e, AssistantEntry))
    await screen.chat.remount(entry)  # as a history segment: the one-widget view
    view = screen.chat.view(entry)
    await wait_until(pilot, lambda: view.region.height >= 3)  # laid out: rows to drag over
    # Row 2 of the rendered Markdown is the paragraph (row 0 the heading).
    await pilot.mouse_down(view, offset=(0, 2))
    await pilot.hover(view, offset=(12, 2))
    await pilot.mouse_up(view, offset=(12, 2))
    await wait_until(pilot, lambda: app.clipboard == "Hello world,")
    return view


@pytest.mark.slow
async def test_selected_text_goes_to_the_system_clipboard_command(make_app, project, tmp_path):
    out = tmp_path / "clipboard.txt"
    runtime = FakeRuntime(project, [plain_answer(ANSWER)])
    app = make_app(runtime)
    app.clipboard_command = [
        sys.executable,
        "-c",
        f"import sys; open({str(out)!r}, 'w').write(sys.stdin.read())",
    ]
    async with app.run_test(size=(100, 30)) as pilot:
        await select_in_finished_answer(app, pilot, runtime)
        await wait_until(pilot, lambda: out.exists() and out.read_text() == "Hello world,")
        assert app.clipboard == "Hello world,"
        # The command wrote the file before it exited; the notice comes once it has.
        await wait_until(
            pilot, lambda: any("Copied 12 characters" in n.message for n in app._notifications)
        )


async def test_without_a_copy_command_the_terminal_is_asked_through_osc_52(make_app, project):
    runtime = FakeRuntime(project, [plain_answer(ANSWER)])
    app = make_app(runtime)
    app.clipboard_command = []  # none found (say, over SSH)
    written: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        driver_write = app._driver.write
        app._driver.write = lambda data: (written.append(data), driver_write(data))[1]
        view = await select_in_finished_answer(app, pilot, runtime)
        assert app.clipboard == "Hello world,"
        assert "\x1b]52;c;SGVsbG8gd29ybGQs\x07" in written  # base64 of "Hello world,"
        # The selection is drawn on the view: exactly the selected cells are highlighted.
        highlight = app.screen.get_component_rich_style("screen--selection").bgcolor
        line = view.render_line(2)
        marked = "".join(seg.text for seg in line if seg.style and seg.style.bgcolor == highlight)
        assert marked == "Hello world,"
