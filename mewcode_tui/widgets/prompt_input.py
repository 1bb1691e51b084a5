"""The multi-line prompt: Enter sends, Shift+Enter/Ctrl+J newline, ↑/↓ history, completion."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.message import Message
from textual.widgets import TextArea

if TYPE_CHECKING:
    from mewcode_tui.completion import Candidate, CompletionQuery
    from mewcode_tui.widgets.completion_menu import CompletionMenu

NEWLINE_KEYS = ("shift+enter", "ctrl+j")


class PromptInput(TextArea):
    """A TextArea that submits on Enter and drives a ``CompletionMenu``."""

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class QueryChanged(Message):
        """The token to complete changed (None: nothing to complete)."""

        def __init__(self, query: CompletionQuery | None) -> None:
            super().__init__()
            self.query = query

    class FocusTools(Message):
        """Tab with no completion open: move into the tool tree."""

    def __init__(self, menu: CompletionMenu, id: str | None = None) -> None:
        super().__init__(
            id=id,
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            compact=True,
            placeholder="Ask MewCode…  (/ commands, @ files, Enter to send)",
        )
        self.menu = menu
        self.sent: list[str] = []  # sent prompts, for ↑/↓ recall
        self._history_index: int | None = None
        self._draft = ""
        self._last_query: CompletionQuery | None = None

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        handled = True
        if self.menu.is_open and key in ("tab", "enter"):
            query = self.menu.query_shown
            self.accept(self.menu.selected)
            if key == "enter" and query is not None and query.trigger == "/":
                self.submit()  # Enter on a command runs it; Tab completes it for arguments
        elif self.menu.is_open and key == "escape":
            self.menu.hide()
        elif key == "enter":
            self.submit()
        elif key in NEWLINE_KEYS:
            start, end = self.selection
            self._replace_via_keyboard("\n", start, end)
        elif key == "tab":
            self.post_message(self.FocusTools())
        else:
            handled = False
        if handled:
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def submit(self) -> None:
        text = self.text
        if not text.strip():
            return
        if not self.sent or self.sent[-1] != text:
            self.sent.append(text)
        self._history_index = None
        self.clear()
        self.menu.hide()
        self.post_message(self.Submitted(text))

    # --- history ---------------------------------------------------------

    def action_cursor_up(self, select: bool = False) -> None:
        if self.menu.is_open and not select:
            self.menu.move(-1)
        elif not select and self.cursor_location[0] == 0 and self.sent:
            self._recall(-1)
        else:
            super().action_cursor_up(select)

    def action_cursor_down(self, select: bool = False) -> None:
        if self.menu.is_open and not select:
            self.menu.move(1)
        elif (
            not select
            and self._history_index is not None
            and self.cursor_location[0] == self.document.line_count - 1
        ):
            self._recall(1)
        else:
            super().action_cursor_down(select)

    def _recall(self, step: int) -> None:
        if self._history_index is None:
            if step > 0:
                return
            self._draft = self.text
            index = len(self.sent) - 1
        else:
            index = self._history_index + step
        if index < 0:
            return
        if index >= len(self.sent):
            self._history_index = None
            self.load_text(self._draft)
            self.move_cursor(self.document.end)
        else:
            self._history_index = index
            self.load_text(self.sent[index])
            # On the first line so a further ↑ keeps walking back.
            self.move_cursor((0, len(self.document.get_line(0))))
        # A recalled "/command" should not pop the completion menu open.
        self._last_query = self.current_query()
        self.menu.hide()

    # --- completion ------------------------------------------------------

    def current_query(self) -> CompletionQuery | None:
        from mewcode_tui.completion import find_query

        row, column = self.cursor_location
        return find_query(self.document.get_line(row), column, first_line=row == 0)

    def _update_query(self) -> None:
        query = self.current_query()
        if query != self._last_query:
            self._last_query = query
            self.post_message(self.QueryChanged(query))

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._update_query()

    def on_text_area_selection_changed(self, event: TextArea.SelectionChanged) -> None:
        self._update_query()

    def accept(self, candidate: Candidate | None) -> None:
        """Replace the token being completed with ``candidate``."""
        query = self.menu.query_shown
        self.menu.hide()
        if candidate is None or query is None:
            return
        row, column = self.cursor_location
        insert = candidate.value + " "
        self.replace(insert, (row, query.start), (row, column), maintain_selection_offset=False)
        self.move_cursor((row, query.start + len(insert)))
