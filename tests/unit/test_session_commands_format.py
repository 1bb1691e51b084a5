"""Pure formatting of the session picker and /context, and /resume id matching."""

from __future__ import annotations

import pytest

from agent_core.errors import MewCodeError
from agent_core.events import SessionSummary
from mewcode_tui.commands.context_cmds import context_table, find_session, usage_bar
from mewcode_tui.screens.resume import one_line, relative_time

NOW = 1_750_000_000.0


@pytest.mark.parametrize(
    ("ago", "words"),
    [
        (-30, "just now"),
        (10, "just now"),
        (5 * 60 + 59, "5 min ago"),
        (59 * 60, "59 min ago"),
        (3 * 3600 + 10, "3 h ago"),
        (30 * 3600, "yesterday"),
        (4 * 86400, "4 days ago"),
    ],
)
def test_relative_time(ago: float, words: str) -> None:
    assert relative_time(NOW - ago, NOW) == words


def test_relative_time_falls_back_to_a_date_after_a_month() -> None:
    assert relative_time(NOW - 90 * 86400, NOW).count("-") == 2


def test_one_line_flattens_and_cuts() -> None:
    assert one_line("fix\n  the   parser") == "fix the parser"
    cut = one_line("word " * 50, width=20)
    assert len(cut) <= 20 and cut.endswith("…")


def info(session_id: str) -> SessionSummary:
    return SessionSummary(session_id, "p", 0.0, 2, 10)


def test_find_session_by_id_or_unique_prefix() -> None:
    sessions = [info("20250101-100000-aaaaaa"), info("20250101-100000-aabbbb"), info("20250202-1")]
    assert find_session(sessions, "20250202-1") == "20250202-1"
    assert find_session(sessions, "20250101-100000-aab") == "20250101-100000-aabbbb"
    with pytest.raises(MewCodeError, match="2 sessions start with 20250101"):
        find_session(sessions, "20250101")
    with pytest.raises(MewCodeError, match="no session zzz"):
        find_session(sessions, "zzz")


def test_usage_bar_scales_to_the_window_in_eighths() -> None:
    assert usage_bar(0, 1000) == ""
    assert usage_bar(1, 1_000_000) == "▏"  # any use shows
    assert usage_bar(500, 1000, cells=10) == "█" * 5
    assert usage_bar(68, 1000, cells=10) == "▋"  # 5.44 eighths of a cell: five eighths
    assert usage_bar(5000, 1000, cells=10) == "█" * 10  # never wider than the window


def test_context_table_lists_categories_with_percent_of_window() -> None:
    text = context_table(
        {
            "system_prompt": 2_000,
            "tool_definitions": 8_000,
            "summary": 0,
            "messages": 40_000,
            "tool_results": 50_000,
            "total": 100_000,
            "context_window": 200_000,
            "compaction_budget": 160_000,
            "free": 100_000,
        }
    )
    lines = text.splitlines()
    assert lines[0] == (
        "Context: about 100,000 of 200,000 tokens (50%) · automatic compaction at 160,000"
    )
    assert lines[4].split()[:3] == ["Messages", "40,000", "20.0%"]
    assert lines[4].endswith("█" * 4 + "▊")  # 20 % of 24 cells = 4.8 cells
    assert lines[3].split() == ["Summary", "0", "0.0%"]
    assert lines[6].split()[:3] == ["Free", "100,000", "50.0%"]
