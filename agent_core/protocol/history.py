"""The answer to ``query_history``: the session's history as a reader sees it.

A front end showing a resumed or forked session gets each message already told apart:
the summary a compaction put first, the model's reply to it, and a user message's own
words apart from the files an @-mention attached. It never needs the compaction or
attachment modules to read the history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core import events as ev

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agent_core.messages import Message
    from agent_core.protocol import ops
    from agent_core.protocol.hosted import HostedRuntime
    from agent_core.session.loader import SavedViews


def history_item(message: Message, typed: str = "") -> ev.HistoryItem:
    """One message as a reader sees it; ``typed`` is what the user typed for it, when the
    message holds its expansion (a slash command's prompt)."""
    from agent_core.attached_files import attachments_of
    from agent_core.context.compaction import ACK_TEXT, is_summary

    if is_summary(message):
        return ev.HistoryItem(message, shown_as="summary")
    if message.role == "assistant" and message.text() == ACK_TEXT:
        return ev.HistoryItem(message, shown_as="summary_ack")
    if message.role == "user":
        words, attached = attachments_of(message)
        return ev.HistoryItem(
            message, words=[typed] if typed and words else words, attached=attached
        )
    return ev.HistoryItem(message)


def report_of(
    history: Sequence[Message], views: SavedViews | None = None, op_id: str = ""
) -> ev.HistoryReport:
    """The report for ``history`` and what the live view showed of it (if saved)."""
    typed = views.prompts if views is not None else {}
    return ev.HistoryReport(
        op_id=op_id,
        items=[history_item(message, typed.get(i, "")) for i, message in enumerate(history)],
        calls=dict(views.calls) if views is not None else {},
        turn_ends=dict(views.turn_ends) if views is not None else {},
    )


def history_report(runtime: HostedRuntime, op: ops.QueryHistory) -> ev.HistoryReport:
    return report_of(runtime.history, runtime.saved_views, op.id)
