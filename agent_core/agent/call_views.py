"""Keeps in the session file how each tool call and early-stopped turn looked when it ended.

A front end shows more than the messages hold: that a call was denied (not merely an
error), how long it ran, an edit's diff, that a turn was cancelled. The runtime passes
every event through ``CallViewRecorder.observe``, which writes that down as it
happens, so a resumed session is shown as it was seen live.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from agent_core import events as ev
from agent_core.agent.conversation import Conversation, HistorySink, closing_marker
from agent_core.agent.loop import CLOSING_NOTES
from agent_core.call_status import CallStatus, call_status
from agent_core.errors import MewCodeError
from agent_core.session.loader import SavedViews
from agent_core.session.records import CallViewRecord, PromptViewRecord, Record, TurnEndRecord

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.messages import Message

log = logging.getLogger("mewcode.call_views")


class RecordSink(Protocol):
    """Where the records go (the session store)."""

    def append_record(self, record: Record, /) -> None: ...


class CallViewRecorder:
    """Follows one turn's events; writes a record when a call, or the turn, ends."""

    def __init__(self, sink: RecordSink, conversation: Conversation, views: SavedViews) -> None:
        self._sink = sink
        self._conversation = conversation  # to see whether the turn got a closing note
        self._views = views  # the session's, kept as the file will read back
        self._open: dict[str, CallViewRecord] = {}
        self._status: dict[str, CallStatus] = {}  # as the UI's tool line shows it now

    def observe(self, event: ev.Event) -> None:
        """Note what ``event`` changes in how a call looks (``call_status``'s rule)."""
        call_id = getattr(event, "call_id", None)
        if isinstance(event, ev.ToolCall):
            self._open[event.call_id] = CallViewRecord(
                call_id=event.call_id, status="cancelled", summary=event.summary
            )
            self._status[event.call_id] = "pending"
        elif call_id in self._status:
            self._status[call_id] = call_status(self._status[call_id], event)
        if isinstance(event, ev.PermissionDecision) and event.decision == "deny":
            if view := self._open.get(event.call_id):
                view.reason = event.reason
        elif isinstance(event, ev.FileDiff):
            if view := self._open.get(event.call_id):
                view.diff, view.diff_path = event.diff, event.path
                view.added, view.removed = event.added, event.removed
        elif isinstance(event, ev.ToolResult):
            if view := self._open.pop(event.call_id, None):
                view.duration_ms = event.duration_ms
                self._write(self._ended(view, self._status.pop(event.call_id, "error")))
        elif isinstance(event, ev.TurnCompleted):
            for view in self._open.values():  # never finished: shown as cancelled
                status = call_status(self._status.get(view.call_id, "pending"), event)
                self._write(self._ended(view, status))
            self._open.clear()
            self._status.clear()
            if event.stop_reason in CLOSING_NOTES:
                self._write(self._turn_end(event))

    def typed(self, shown: str) -> None:
        """The prompt appended next is the expansion of what the user typed, ``shown``."""
        self._write(PromptViewRecord(shown=shown))

    @staticmethod
    def _ended(view: CallViewRecord, status: CallStatus) -> CallViewRecord:
        """The record with the status a finished call has (never one still running)."""
        view.status = status if status in ("ok", "error", "denied") else "cancelled"
        return view

    def _turn_end(self, event: ev.TurnCompleted) -> TurnEndRecord:
        marker = closing_marker(CLOSING_NOTES[event.stop_reason])
        history = self._conversation.messages
        last = history[-1] if history else None
        added = last is not None and last.role == "assistant" and last.text() == marker
        return TurnEndRecord(
            stop_reason=event.stop_reason, error=event.error or "", marker=marker if added else ""
        )

    def _write(self, record: CallViewRecord | TurnEndRecord | PromptViewRecord) -> None:
        self._views.note(record, len(self._conversation.messages))
        try:
            self._sink.append_record(record)
        except MewCodeError as exc:  # the messages are what matter; the view can go
            log.warning("could not record how a call looked: %s", exc)


class ViewKeepingSink:
    """The session store as the conversation's sink; a compaction also moves what the
    session's saved views say of the messages it kept (and forgets the rest)."""

    def __init__(self, store: HistorySink, views: Callable[[], SavedViews], length: int) -> None:
        self._store = store
        self._views = views
        self._length = length  # messages in the history, as the file reads back

    def append_message(self, message: Message, /) -> None:
        self._store.append_message(message)
        self._length += 1

    def append_compaction(
        self, history: list[Message], tokens_before: int, tokens_after: int, /
    ) -> None:
        self._store.append_compaction(history, tokens_before, tokens_after)
        self._views().compacted(self._length, history)
        self._length = len(history)
