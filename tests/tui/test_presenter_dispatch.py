"""The presenter handles every event type in ``agent_core.events.Event``; none is dropped silently."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest
from textual.app import App, ComposeResult

from agent_core import events as ev
from mewcode_tui.presenter import TurnPresenter
from mewcode_tui.transcript import NoticeEntry, ToolRoundEntry, Transcript
from mewcode_tui.widgets.chat_log import ChatLog
from mewcode_tui.widgets.status_bar import StatusBar
from mewcode_tui.widgets.tool_call_view import ToolCallLine

EVENT_TYPES = typing.get_args(ev.Event)


def sample(kind: msgspec.inspect.Type) -> Any:
    """The simplest value of a field type (every string is "x", so call ids match)."""
    match kind:
        case msgspec.inspect.LiteralType():
            return kind.values[0]
        case msgspec.inspect.StrType():
            return "x"
        case msgspec.inspect.BoolType():
            return False
        case msgspec.inspect.IntType():
            return 0
        case msgspec.inspect.FloatType():
            return 0.0
        case msgspec.inspect.ListType():
            return []
        case msgspec.inspect.DictType():
            return {}
        case msgspec.inspect.StructType():
            return minimal(kind.cls)
        case msgspec.inspect.UnionType() if kind.includes_none:
            return None
    raise TypeError(f"no sample for {kind!r}: extend sample()")


def minimal(cls: type) -> Any:
    """An instance of a Struct with only its required fields, each set to a sample."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return cls(**{f.name: sample(f.type) for f in info.fields if f.required})


class RecordingHost:
    """A presenter host that only records what it was asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def ask_approval(self, event: ev.ApprovalRequested) -> None:
        self.calls.append("ask_approval")

    def mode_changed(self, mode: str) -> None:
        self.calls.append("mode_changed")

    def turn_clock(self, running: bool) -> None:
        self.calls.append(f"turn_clock({running})")

    def working(self, label: str | None) -> None:
        self.calls.append(f"working({label})")


class PresenterApp(App[None]):
    """Just the widgets the presenter drives."""

    def __init__(self) -> None:
        super().__init__()
        self.transcript = Transcript()
        self.host = RecordingHost()

    def compose(self) -> ComposeResult:
        yield ChatLog(self.transcript)
        yield StatusBar()

    def presenter(self) -> TurnPresenter:
        return TurnPresenter(
            self.host, self.transcript, self.query_one(ChatLog), self.query_one(StatusBar)
        )


def test_the_union_is_walked():
    # A typo in the walk (an empty or partial tuple) would make the test below vacuous.
    assert len(EVENT_TYPES) >= 18
    assert all(issubclass(kind, msgspec.Struct) for kind in EVENT_TYPES)


@pytest.mark.parametrize("kind", EVENT_TYPES, ids=lambda kind: kind.__name__)
async def test_every_event_type_is_handled(kind):
    app = PresenterApp()
    async with app.run_test():
        presenter = app.presenter()
        # A call "x" exists, so call events reach a line rather than an early return.
        await presenter.apply(minimal(ev.ToolCall))
        await presenter.apply(minimal(kind))  # an unhandled type hits assert_never


async def test_an_event_type_outside_the_union_is_refused():
    """What the walk relies on: a type the match does not know is an error, not a no-op."""

    class Unknown(ev._Event, tag="unknown"):
        pass

    app = PresenterApp()
    async with app.run_test():
        with pytest.raises(AssertionError):
            await app.presenter().apply(Unknown())  # type: ignore[arg-type]


async def test_minimal_events_show_what_they_carry():
    """The walk's instances are real events: applied in order they reach the widgets."""
    app = PresenterApp()
    async with app.run_test() as pilot:
        presenter = app.presenter()
        for kind in EVENT_TYPES:
            await presenter.apply(minimal(kind))
        await pilot.pause()
        entries = app.transcript.entries
        assert any(isinstance(entry, ToolRoundEntry) for entry in entries)
        assert any(isinstance(entry, NoticeEntry) for entry in entries)
        line = app.query_one(ChatLog).line_for("x")
        assert isinstance(line, ToolCallLine) and line.record.status == "ok"
        assert "ask_approval" in app.host.calls and "mode_changed" in app.host.calls
        assert app.host.calls[-1] == "turn_clock(False)"
