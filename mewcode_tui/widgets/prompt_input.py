"""The multi-line prompt: Enter sends; a new line with \\ then Enter, Alt+Enter, Shift+Enter
(where the terminal reports it) or Ctrl+J; ↑/↓ history; completion."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual import events
from textual.message import Message
from textual.widgets import TextArea

if TYPE_CHECKING:
    from mewcode_tui.completion import Candidate, CompletionQuery
    from mewcode_tui.widgets.completion_menu import CompletionMenu

# Alt+Enter arrives as ESC CR, made "alt+enter" by terminal_keys.py; Shift+Enter only
# from terminals with an extended keyboard protocol ("shift+\r": xterm's modifyOtherKeys,
# as tmux sends with extended-keys on). Ctrl+J is a line feed in every terminal.
NEWLINE_KEYS = ("shift+enter", "alt+enter", "shift+\r", "ctrl+j")
PLACEHOLDER = "Ask MewCode…  (\\ Enter or Alt+Enter: new line, / commands, @ files)"


class PromptHistory(Protocol):
    """The prompts sent before, oldest first (prompt_history.py keeps them on disk)."""

    def entries(self) -> list[str]: ...

    def add(self, text: str) -> None: ...


class RunHistory:
    """A history that lasts as long as the app (when none is kept on disk)."""

    def __init__(self) -> None:
        self._entries: list[str] = []

    def entries(self) -> list[str]:
        return self._entries

    def add(self, text: str) -> None:
        if not self._entries or self._entries[-1] != text:
            self._entries.append(text)


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
            placeholder=PLACEHOLDER,
        )
        self.menu = menu
        self.prompts: PromptHistory = RunHistory()  # the screen gives the project's
        self._history_index: int | None = None
        self._draft = ""
        self._last_query: CompletionQuery | None = None

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        handled = True
        if key in ("tab", "enter") and self.menu.is_open and not self._menu_is_current():
            # The screen has not yet seen the keys typed since it filled the menu (it lags
            # while busy, at start-up most): its pick would replace what was typed.
            self.menu.hide()
            if key == "tab":
                self._last_query = None
                self._update_query()  # ask again for what is typed now
        if self.menu.is_open and key in ("tab", "enter"):
            query = self.menu.query_shown
            self.accept(self.menu.selected)
            if key == "enter" and query is not None and query.trigger == "/":
                self.submit()  # Enter on a command runs it; Tab completes it for arguments
        elif self.menu.is_open and key == "escape":
            self.menu.hide()
        elif key == "enter" and self._backslash_before_cursor():
            row, column = self.cursor_location
            self._replace_via_keyboard("\n", (row, column - 1), (row, column))
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

    def _backslash_before_cursor(self) -> bool:
        """``\\`` then Enter asks for a new line (the backslash goes), as in a shell."""
        start, end = self.selection
        if start != end:
            return False
        row, column = end
        return column > 0 and self.document.get_line(row)[column - 1] == "\\"

    def _menu_is_current(self) -> bool:
        """The menu's candidates are for the token at the cursor now."""
        return self.menu.query_shown == self.current_query()

    def submit(self) -> None:
        text = self.text
        if not text.strip():
            return
        self.prompts.add(text)
        self._history_index = None
        self.clear()
        self.menu.hide()
        self.post_message(self.Submitted(text))

    # --- history ---------------------------------------------------------

    def action_cursor_up(self, select: bool = False) -> None:
        if self.menu.is_open and not select:
            self.menu.move(-1)
        elif not select and self.cursor_location[0] == 0 and self.prompts.entries():
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
        sent = self.prompts.entries()
        if self._history_index is None:
            if step > 0:
                return
            self._draft = self.text
            index = len(sent) - 1
        else:
            index = self._history_index + step
        if index < 0:
            return
        if index >= len(sent):
            self._history_index = None
            self.load_text(self._draft)
            self.move_cursor(self.document.end)
        else:
            self._history_index = index
            self.load_text(sent[index])
            # On the first line so a further ↑ keeps walking back.
            self.move_cursor((0, len(self.document.get_line(0))))
        # A recalled "/command" should not pop the completion menu open.
        self._last_query = self.current_query()
        self.menu.hide()

    def put(self, text: str) -> None:
        """Replace the prompt's text with ``text`` (a history entry), the cursor at its end."""
        self._history_index = None
        self.load_text(text)
        self.move_cursor(self.document.end)
        self._last_query = self.current_query()  # a recalled "/command" opens no menu
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
