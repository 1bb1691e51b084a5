"""The TUI demo, with the real demo provider and runtime: it works in a scratch copy.

The project stays byte-identical through a whole tour (the edit approved), the
welcome line and status bar name the copy, and the keys the tour names work.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.config.settings import Settings
from mewcode_tui.app import MewCodeApp
from mewcode_tui.cli import main
from mewcode_tui.session_start import TuiOptions
from mewcode_tui.transcript import AssistantEntry, NoticeEntry
from mewcode_tui.widgets.status_bar import short_path
from tests.helpers.tree_digest import tree_digest
from tests.tui.conftest import past_key_guard, session_started, wait_until


@pytest.fixture
def real_project(project: Path, tmp_path: Path, monkeypatch) -> Path:
    (project / "README.md").write_text("# Demo project\nTODO: try mewcode\n")
    (project / "notes.txt").write_text("keep me\n")
    scratch_root = tmp_path / "tmp"
    scratch_root.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch_root))
    return project


def demo_options(project: Path, monkeypatch) -> TuiOptions:
    """The options `mewcode --demo` hands the TUI (the CLI path, run_tui replaced)."""
    captured: list[TuiOptions] = []
    monkeypatch.setattr(
        "mewcode_tui.app_runner.run_tui", lambda options: captured.append(options) or 0
    )
    assert main(["--demo", "--cwd", str(project)]) == 0
    return captured[0]


def on_screen(app) -> str:
    """The text the widgets of the screen on top show now."""
    return "\n".join(str(widget.render()) for widget in app.screen.query("*"))


def notices(screen) -> list[str]:
    return [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]


@pytest.mark.slow
async def test_the_demo_tour_leaves_the_project_byte_identical(real_project, monkeypatch):
    from mewcode_tui.screens.approval import ApprovalScreen
    from mewcode_tui.screens.diff_screen import DiffScreen
    from mewcode_tui.widgets.tool_call_view import ToolCallLine

    before = tree_digest(real_project)
    options = demo_options(real_project, monkeypatch)
    app = MewCodeApp(options, clock=lambda: 0.0)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, app)
        scratch = screen.starter.runtime.cwd
        assert scratch != real_project and (scratch / "README.md").is_file()
        assert screen.status.cwd == short_path(scratch)
        assert any(short_path(scratch) in text for text in notices(screen))
        await pilot.press(*"show me", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen), timeout=20)
        # "the dialog shows the diff and the rule *always* would save"
        dialog = app.screen
        assert dialog.request.diff and dialog.request.suggested_rules
        await wait_until(pilot, lambda: dialog.request.suggested_rules[0] in on_screen(app))
        await past_key_guard(pilot, app)
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: (
                not screen.turn_active
                and any(
                    "That was the tour" in e.text
                    for e in screen.transcript.entries
                    if isinstance(e, AssistantEntry)
                )
            ),
            timeout=20,
        )
        assert (scratch / "MEWCODE_DEMO.md").is_file()
        assert tree_digest(real_project) == before
        # "press Tab in the prompt to reach the tool lines, ↑/↓ to pick one and → to open it"
        screen.prompt.focus()
        await pilot.press("tab")
        await wait_until(pilot, lambda: isinstance(app.focused, ToolCallLine))
        write_line = app.focused
        assert write_line.record.tool == "Write"
        # "`d` on its tool line opens the full diff"
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        write_line.focus()
        await pilot.press("up")
        await wait_until(pilot, lambda: app.focused is not write_line)
        read_line = app.focused
        assert isinstance(read_line, ToolCallLine) and not read_line.record.expanded
        await pilot.press("right")
        await wait_until(pilot, lambda: read_line.record.expanded)
    assert tree_digest(real_project) == before


@pytest.mark.slow
async def test_the_demo_chosen_on_first_run_works_in_a_scratch_copy(real_project, paths):
    before = tree_digest(real_project)
    app = MewCodeApp(TuiOptions(cwd=real_project, paths=paths, settings=Settings()))
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_until(pilot, lambda: app.screen is not app.main_screen)
        await pilot.press("ctrl+d")  # the first-run screen's offline demo
        screen = await session_started(pilot, app)
        scratch = screen.starter.runtime.cwd
        assert scratch != real_project and (scratch / "README.md").is_file()
        assert any(short_path(scratch) in text for text in notices(screen))
        assert screen.status.cwd == short_path(scratch)  # the status bar names the copy too
        assert screen.paths.project == scratch
    assert tree_digest(real_project) == before
