"""Sessions nothing was said in leave no file; the picker offers only other sessions (issue 12, item 6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_core.session import latest_session_id, list_sessions
from agent_core.session.store import SessionStore
from mewcode_tui.screens.resume import ResumeScreen
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import wait_until
from tests.tui.test_session_commands import command, real_app, saved_session, started


def session_files(paths) -> list[str]:
    return sorted(p.name for p in paths.sessions_dir.glob("*.jsonl"))


async def test_opening_and_quitting_leaves_no_session_and_continue_starts_fresh(options, paths):
    app = real_app(options)
    async with app.run_test(size=(110, 36)) as pilot:
        await started(pilot, app)
    assert session_files(paths) == []
    assert latest_session_id(paths) is None

    again = real_app(replace(options, continue_latest=True))
    async with again.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, again)
        assert screen.starter.runtime.history == []
        assert not any("Resumed session" in n for n in map(str, screen.transcript.entries))
    assert session_files(paths) == []


@pytest.mark.slow
async def test_clear_then_quit_leaves_only_the_session_with_messages(options, paths):
    app = real_app(options, ScriptedProvider([Step(text="Noted.")]))
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await pilot.press(*"remember kiwi", "enter")
        await wait_until(
            pilot, lambda: not screen.turn_active and len(screen.starter.runtime.history) == 2
        )
        spoken = screen.starter.runtime.session_id
        await command(pilot, screen, "/clear")
        await wait_until(pilot, lambda: screen.starter.runtime.session_id != spoken)
    assert session_files(paths) == [f"{spoken}.jsonl"]
    assert [s.session_id for s in list_sessions(paths)] == [spoken]


def test_a_header_only_file_from_an_older_version_is_not_offered(paths) -> None:
    kept = saved_session(paths, [("real work", "Done.")], mtime=1_000_000)
    empty = paths.sessions_dir / "20990101-000000-abcdef.jsonl"  # newer, header only
    empty.write_text(
        '{"type":"meta","ts":"x","session_id":"20990101-000000-abcdef","cwd":"/","created":"x"}\n'
    )
    assert latest_session_id(paths) == kept
    assert [s.session_id for s in list_sessions(paths)] == [kept]


def test_a_crash_before_the_first_message_leaves_no_session_file(paths) -> None:
    store = SessionStore.create(paths, model="m", provider="p", env={})
    # No close(): the process dies here. Nothing was written, so there is nothing to resume.
    assert not store.path.exists()
    assert list_sessions(paths) == [] and latest_session_id(paths) is None


@pytest.mark.slow
async def test_the_picker_starts_on_the_newest_other_session_and_the_current_one_is_not_selectable(
    options, paths
):
    older = saved_session(paths, [("fix the parser", "Parser fixed.")], mtime=1_000_000)
    newer = saved_session(paths, [("add a flag", "Flag added.")], mtime=2_000_000)
    app = real_app(options, ScriptedProvider([Step(text="Hello.")]))
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await pilot.press(*"hi", "enter")
        await wait_until(
            pilot, lambda: not screen.turn_active and len(screen.starter.runtime.history) == 2
        )
        current = screen.starter.runtime.session_id
        await command(pilot, screen, "/resume")
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        picker = app.screen
        sessions = picker.query_one("#sessions")
        # The current session is the newest; it is listed, marked, and the cursor is past it.
        assert [s.session_id for s in picker.sessions] == [current, newer, older]
        assert sessions.get_option_at_index(0).disabled
        assert "(this session)" in str(sessions.get_option_at_index(0).prompt.columns[1]._cells)
        assert sessions.highlighted == 1
        await pilot.press("up")  # skips the current session (wrapping to the oldest)
        assert sessions.highlighted == 2
        sessions.highlighted = 0  # even with the cursor put on it, Enter does not open it
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen) and screen.starter.runtime.session_id == current
        await pilot.press("home", "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, ResumeScreen))
        await wait_until(pilot, lambda: screen.starter.runtime.session_id == newer)
