"""One rule for how a tool call stands: the UI's tool lines and the saved views of a
resumed session fold the same events with ``call_status`` and so always agree."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core import events as ev
from agent_core.agent.call_views import CallViewRecorder
from agent_core.agent.conversation import Conversation
from agent_core.call_status import UNFINISHED, CallStatus, call_status
from agent_core.session.loader import SavedViews
from agent_core.usage import Usage

ID = "c1"


def decision(value: ev.Decision) -> ev.PermissionDecision:
    return ev.PermissionDecision(call_id=ID, decision=value, layer="mode", reason=f"r-{value}")


def approval() -> ev.ApprovalRequested:
    return ev.ApprovalRequested(
        approval_id="a1", call_id=ID, tool="Bash", input={}, reason="?", layer="mode",
        suggested_rules=[],
    )  # fmt: skip


def result(is_error: bool) -> ev.ToolResult:
    return ev.ToolResult(call_id=ID, tool="Bash", is_error=is_error, content="", duration_ms=5)


def completed() -> ev.TurnCompleted:
    return ev.TurnCompleted(
        turn_id="t", stop_reason="end_turn", final_text="", iterations=1, usage=Usage()
    )


@pytest.mark.parametrize(
    ("previous", "event", "expected"),
    [
        ("pending", decision("allow"), "running"),
        ("pending", decision("ask"), "awaiting"),
        ("pending", decision("deny"), "denied"),
        ("pending", approval(), "awaiting"),
        ("awaiting", decision("allow"), "running"),
        ("running", result(False), "ok"),
        ("running", result(True), "error"),
        ("pending", result(False), "ok"),
        ("denied", result(True), "denied"),  # a denied call's error result keeps "denied"
        ("denied", result(False), "denied"),
        ("running", completed(), "cancelled"),
        ("awaiting", completed(), "cancelled"),
        ("pending", completed(), "cancelled"),
        ("ok", completed(), "ok"),
        ("denied", completed(), "denied"),
        ("running", ev.Notice(level="info", message="x"), "running"),
    ],
)
def test_call_status(previous: CallStatus, event: ev.Event, expected: CallStatus) -> None:
    assert call_status(previous, event) == expected


class Sink:
    def __init__(self) -> None:
        self.records: list[object] = []

    def append_record(self, record: object, /) -> None:
        self.records.append(record)


EVENTS = st.sampled_from(
    [decision("allow"), decision("ask"), decision("deny"), approval(), result(False),
     result(True), ev.Notice(level="info", message="x")]
)  # fmt: skip


@given(st.lists(EVENTS, max_size=6), st.booleans())
def test_the_saved_view_shows_the_status_the_ui_folds(events: list[ev.Event], end: bool) -> None:
    tool_call = ev.ToolCall(call_id=ID, tool="Bash", input={}, read_only=False, summary="s")
    sink = Sink()
    live = SavedViews()
    recorder = CallViewRecorder(sink, Conversation(), live)  # type: ignore[arg-type]
    shown: CallStatus = "pending"  # what the presenter starts a tool line with
    recorder.observe(tool_call)
    stream = [*events, completed()] if end else events
    for event in stream:
        recorder.observe(event)
        shown = call_status(shown, event)
        if isinstance(event, ev.ToolResult):
            break  # the call is over: later events are about nothing it shows
    views = [r for r in sink.records if getattr(r, "call_id", None) == ID]
    ended = end or any(isinstance(e, ev.ToolResult) for e in events)
    if not ended:
        assert views == []  # the view is saved when the call or its turn ends
    else:
        assert shown not in UNFINISHED
        assert [v.status for v in views] == [shown]  # type: ignore[attr-defined]
        assert live.calls[ID].status == shown  # the live session's views, as the file reads
