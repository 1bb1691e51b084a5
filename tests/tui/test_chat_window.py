"""Windowing: a huge resumed session mounts only its tail and loads more on scroll."""

from __future__ import annotations

from agent_core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
from mewcode_tui.transcript import ToolRoundEntry
from mewcode_tui.widgets.tool_call_view import ToolCallLine
from tests.tui.conftest import wait_until, window_mounted
from tests.tui.fakes import FakeRuntime


def big_history(turns: int) -> list[Message]:
    """``turns`` exchanges of: question, tool call, result, answer (4 messages each)."""
    history = []
    for i in range(turns):
        history.append(Message("user", [TextBlock(f"question {i}")]))
        history.append(
            Message("assistant", [ToolUseBlock(f"c{i}", "Read", {"file_path": f"f{i}.py"})])
        )
        history.append(Message("user", [ToolResultBlock(f"c{i}", f"content {i}")]))
        history.append(Message("assistant", [TextBlock(f"answer **{i}**")]))
    return history


async def test_resumed_big_session_is_windowed(make_app, project):
    runtime = FakeRuntime(project, history=big_history(500))  # 2 000 messages, 500 calls
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        chat = screen.chat
        # The "Resumed session" line is said after the history is mounted: wait for it too.
        await wait_until(
            pilot,
            lambda: (
                "Resumed session" in getattr(screen.transcript.last, "text", "")
                and window_mounted(chat)
            ),
        )
        total = len(screen.transcript.entries)
        assert total > 1500
        assert len(chat.children) <= chat.window
        assert len(list(app.screen.walk_children())) < 400  # bounded widget count
        # Every call is known (and resumable as "ok"), though few are mounted.
        assert len(screen.transcript.calls) == 500
        assert all(r.status == "ok" for r in screen.transcript.calls.values())
        newest = chat.children[-1]
        assert "Resumed session" in str(newest.render())

        first_before = chat.first_mounted
        chat.scroll_home(animate=False)
        await wait_until(pilot, lambda: chat.first_mounted < first_before)
        assert chat.first_mounted == first_before - chat.load_batch
        # The reader's place is kept: the view does not sit at the new top (and load again).
        await wait_until(pilot, lambda: chat.scroll_y > 0)
        await pilot.pause(0.1)  # room for a wrong second load: it must not come
        assert chat.first_mounted == first_before - chat.load_batch


async def test_tree_navigation_loads_older_calls(make_app, project):
    runtime = FakeRuntime(project, history=big_history(100))
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        chat = screen.chat
        await wait_until(pilot, lambda: screen.session is not None and len(chat.children) > 10)
        await pilot.press("tab")
        mounted_calls = len(chat.tool_lines())
        for _ in range(mounted_calls):
            await pilot.press("up")
        # Walking past the oldest mounted call loads older entries (a later callback).
        await wait_until(pilot, lambda: len(chat.tool_lines()) > mounted_calls)
        assert isinstance(app.focused, ToolCallLine)


async def test_ctrl_o_covers_unmounted_calls(make_app, project):
    runtime = FakeRuntime(project, history=big_history(200))
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(
            pilot, lambda: screen.session is not None and len(screen.chat.children) > 10
        )
        await pilot.press("ctrl+o")
        rounds = [e for e in screen.transcript.entries if isinstance(e, ToolRoundEntry)]
        assert all(call.expanded for r in rounds for call in r.calls)
