"""The one interface the chat log and the presenter use on the view of any transcript entry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeAlias

if TYPE_CHECKING:
    from mewcode_tui.transcript import Entry
    from mewcode_tui.widgets.assistant_view import AssistantMessageView, AssistantTextView
    from mewcode_tui.widgets.message_view import (
        NoticeView,
        ThinkingView,
        TodoView,
        UserMessageView,
    )
    from mewcode_tui.widgets.tool_call_view import ToolRoundView

    # Every widget the chat log mounts for an entry; each one is an ``EntryView``.
    EntryWidget: TypeAlias = (
        UserMessageView
        | AssistantMessageView
        | AssistantTextView
        | ThinkingView
        | ToolRoundView
        | NoticeView
        | TodoView
    )


class EntryView(Protocol):
    """The view of one transcript entry, whatever kind of entry it is."""

    @property
    def entry(self) -> Entry:
        """The transcript entry this view shows."""
        ...

    async def entry_changed(self) -> None:
        """The transcript changed this view's entry (text, done, calls, to-dos): show it now."""
        ...
