"""The answer to ``query_history``: the session's history as a reader sees it.

A front end showing a resumed or forked session gets each message already told apart:
the summary a compaction put first, the model's reply to it, and a user message's own
words apart from the files an @-mention attached. It never needs the compaction or
attachment modules to read the history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core import events as ev
from agent_core.protocol.ops import is_shell_call

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


def _shell_items(
    history: Sequence[Message], items: list[ev.HistoryItem], views: SavedViews | None
) -> None:
    """Tell the ``!`` commands' messages apart, each with its call's saved view: those
    are in the order the commands ran, and a compaction drops the oldest messages, so
    the last views go with the last messages."""
    from agent_core.agent.shell_context import is_shell_ack, read_shell_context

    found = [(i, told) for i, m in enumerate(history) if (told := read_shell_context(m))]
    saved = [v for k, v in (views.calls if views else {}).items() if is_shell_call(k)]
    saved = saved[-len(found) :] if found else []
    offset = len(found) - len(saved)
    for n, (index, (command, output, ran)) in enumerate(found):
        call = saved[n - offset] if n >= offset else None
        shell = ev.ShellRun(command=command, output=output, ran=ran, call=call)
        items[index] = ev.HistoryItem(history[index], shown_as="shell", shell=shell)
        after = index + 1
        if after < len(history) and is_shell_ack(history[after]):
            items[after] = ev.HistoryItem(history[after], shown_as="shell_ack")


def report_of(
    history: Sequence[Message], views: SavedViews | None = None, op_id: str = ""
) -> ev.HistoryReport:
    """The report for ``history`` and what the live view showed of it (if saved)."""
    typed = views.prompts if views is not None else {}
    items = [history_item(message, typed.get(i, "")) for i, message in enumerate(history)]
    _shell_items(history, items, views)
    return ev.HistoryReport(
        op_id=op_id,
        items=items,
        calls=dict(views.calls) if views is not None else {},
        turn_ends=dict(views.turn_ends) if views is not None else {},
    )


def history_report(runtime: HostedRuntime, op: ops.QueryHistory) -> ev.HistoryReport:
    return report_of(runtime.history, runtime.saved_views, op.id)
