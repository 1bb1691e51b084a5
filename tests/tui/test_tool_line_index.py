"""A tool call's line is found by its id, and the lookup stays right as the window moves."""

from __future__ import annotations

from textual.app import App, ComposeResult

from mewcode_tui.transcript import NoticeEntry, ToolCallRecord, ToolRoundEntry, Transcript
from mewcode_tui.widgets.chat_log import ChatLog
from mewcode_tui.widgets.tool_call_view import ToolCallLine
from tests.tui.conftest import wait_until


def add_round(transcript: Transcript, *call_ids: str) -> ToolRoundEntry:
    round_ = None
    for call_id in call_ids:
        round_, _ = transcript.add_call(ToolCallRecord(call_id, "Read", call_id, {}))
    transcript.end_round()
    assert round_ is not None
    return round_


class WindowApp(App[None]):
    """A chat log over ``rounds`` two-call rounds, four entries mounted at a time."""

    def __init__(self, rounds: int) -> None:
        super().__init__()
        self.transcript = Transcript()
        for i in range(rounds):
            add_round(self.transcript, f"a{i}", f"b{i}")
            self.transcript.add(NoticeEntry("info", f"note {i}"))

    def compose(self) -> ComposeResult:
        yield ChatLog(self.transcript, window=4, batch=2)


def assert_index_matches_screen(chat: ChatLog) -> int:
    """Every call's ``line_for`` is the line on screen for it (None when not mounted)."""
    shown = {line.record.call_id: line for line in chat.query(ToolCallLine)}
    for call_id in chat.transcript.calls:
        assert chat.line_for(call_id) is shown.get(call_id), call_id
    assert chat.tool_lines() == list(shown.values())  # and in screen order
    return len(shown)


async def test_line_for_follows_load_older_prune_reload_and_remount():
    app = WindowApp(rounds=10)
    async with app.run_test(size=(60, 8)) as pilot:
        chat = app.query_one(ChatLog)
        await pilot.pause()
        shown = assert_index_matches_screen(chat)
        assert shown and chat.line_for("a0") is None  # the oldest rounds are not mounted

        assert await chat.load_older() == 2
        await pilot.pause()
        assert assert_index_matches_screen(chat) == shown + 2  # one more round

        # New entries at the bottom prune the oldest views again.
        chat.scroll_end(animate=False, immediate=True)
        for i in range(10, 13):
            await chat.append(add_round(app.transcript, f"a{i}", f"b{i}"))
        await wait_until(pilot, lambda: chat.mounted_count == chat.window)
        await pilot.pause()
        assert assert_index_matches_screen(chat) == 6  # a notice and three rounds
        assert chat.line_for("a12") is not None and chat.line_for("a9") is None

        # A round remounted gets new lines; the index points at them, not the old ones.
        newest = app.transcript.entries[-1]
        old_line = chat.line_for("a12")
        await chat.remount(newest)
        await pilot.pause()
        assert chat.line_for("a12") is not old_line
        assert assert_index_matches_screen(chat) == 6

        await chat.reload()
        await pilot.pause()
        assert assert_index_matches_screen(chat) == 6


async def test_a_call_joining_a_mounted_round_is_found_at_once():
    app = WindowApp(rounds=1)
    async with app.run_test(size=(60, 8)) as pilot:
        chat = app.query_one(ChatLog)
        round_, new = app.transcript.add_call(ToolCallRecord("first", "Read", "x", {}))
        assert new
        await chat.append(round_)
        joined, new = app.transcript.add_call(ToolCallRecord("late", "Grep", "x", {}))
        assert joined is round_ and not new
        view = chat.view(round_)
        assert view is not None
        await view.entry_changed()
        line = chat.line_for("late")  # found by key at once, before the mount completes
        assert line is not None and line.record.call_id == "late"
        await pilot.pause()
        assert assert_index_matches_screen(chat) == 4


def test_prepended_history_keeps_its_calls_findable():
    earlier, current = Transcript(), Transcript()
    old_round = add_round(earlier, "old")
    add_round(current, "new")
    current.prepend(earlier)
    assert current.entries[0] is old_round
    assert current.rounds["old"] is old_round and "new" in current.rounds
    assert set(current.calls) == {"old", "new"}
