"""The views of transcript entries: the one interface they share, and their factory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeAlias, assert_never

from mewcode_tui.transcript import (
    AssistantEntry,
    NoticeEntry,
    ThinkingEntry,
    TodoEntry,
    ToolRoundEntry,
    UserEntry,
)
from mewcode_tui.widgets.tool_call_view import ToolRoundView

if TYPE_CHECKING:
    from mewcode_tui.transcript import Entry
    from mewcode_tui.widgets.assistant_view import AssistantMessageView, AssistantTextView
    from mewcode_tui.widgets.message_view import (
        NoticeView,
        ThinkingView,
        TodoView,
        UserMessageView,
    )

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


def view_for_entry(entry: Entry) -> EntryWidget:
    """A fresh widget showing ``entry``."""
    from mewcode_tui.widgets.message_view import (
        NoticeView,
        ThinkingView,
        TodoView,
        UserMessageView,
    )

    match entry:
        case UserEntry():
            return UserMessageView(entry)
        case AssistantEntry():
            from mewcode_tui.widgets import assistant_view

            # The class is given at construction: set_class() on a new widget runs
            # a stylesheet update, once per segment of a fast stream.
            classes = "-continued" if entry.continued else None
            if entry.done:  # one widget, not one per block
                return assistant_view.AssistantTextView(entry, classes=classes)
            return assistant_view.AssistantMessageView(entry, classes=classes)
        case ThinkingEntry():
            return ThinkingView(entry)
        case ToolRoundEntry():
            return ToolRoundView(entry)
        case NoticeEntry():
            return NoticeView(entry)
        case TodoEntry():
            return TodoView(entry)
        case _:
            assert_never(entry)
