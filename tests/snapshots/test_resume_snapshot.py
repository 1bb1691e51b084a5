"""SVG snapshot of the session picker (/resume, `mewcode --resume`).

Update after an intended visual change with ``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

import pytest

from agent_core.events import SessionSummary
from mewcode_tui.screens.resume import ResumeScreen
from tests.snapshots.test_modal_snapshots import SIZE, ScreenHost

NOW = 1_750_000_000.0


@pytest.fixture(autouse=True)
def colors_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


def info(session_id: str, prompt: str, ago: float, size: int, count: int) -> SessionSummary:
    return SessionSummary(session_id, prompt, NOW - ago, count, size)


SESSIONS = [
    # The session in use: listed once it has messages, marked and not selectable.
    info("20250615-140000-aaaaaa", "Skip empty sessions in the picker", 20, 3_400, 4),
    info(
        "20250615-133500-bbbbbb",
        "Add a --verbose flag to the CLI and print progress",
        300,
        48_200,
        14,
    ),
    info(
        "20250615-090000-cccccc",
        "The parser chokes on nested quotes in config values; find out why and fix it, "
        "then add a regression test that covers single and double quotes in keys and values",
        5 * 3600,
        1_234_000,
        212,
    ),
    info(
        "20250612-180000-dddddd",
        "Explain how the session store writes records",
        3 * 86400,
        9_100,
        1,
    ),
]


def test_resume_picker(snap_compare, paths) -> None:
    screen = ResumeScreen(SESSIONS, current="20250615-140000-aaaaaa", now=NOW)
    assert snap_compare(ScreenHost(paths, screen), terminal_size=SIZE)
