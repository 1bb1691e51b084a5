"""Chat entries other than tool calls and assistant text: user, thinking, notices, to-dos.

Their text quotes hooks, servers, files and the model: it is shown through
``visible_text``, so an escape sequence in it is seen, never run by the terminal.
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.reactive import var
from textual.widgets import Static

from agent_core.terminal_text import visible_text
from mewcode_tui.transcript import (
    NoticeEntry,
    ThinkingEntry,
    TodoEntry,
    UserEntry,
    human_size,
)


def user_message_text(entry: UserEntry) -> Text:
    """What the user typed, then one chip per attached file (name and size)."""
    text = Text(visible_text(entry.text, multiline=True))
    if entry.attachments:
        text.append("\n")
        for i, attached in enumerate(entry.attachments):
            size = human_size(attached.size)
            if attached.shown < attached.size:
                size = f"first {human_size(attached.shown)} of {size}"
            text.append(" " if i else "")
            text.append(f" ⎘ {visible_text(attached.path)} · {size} ", style="reverse")
    return text


class UserMessageView(Static):
    """What the user typed, with the files it attached."""

    def __init__(self, entry: UserEntry) -> None:
        super().__init__(user_message_text(entry), markup=False)
        self.entry = entry

    async def entry_changed(self) -> None:
        self.update(user_message_text(self.entry))


class ThinkingView(Static, can_focus=True):
    """Model reasoning: dimmed, collapsed to one line until opened."""

    BINDINGS = [
        Binding(
            "enter,right",
            "set_expanded(True)",
            "Expand",
            show=False,
            id="mewcode.thinking.expand",
        ),
        Binding(
            "left", "set_expanded(False)", "Collapse", show=False, id="mewcode.thinking.collapse"
        ),
    ]
    expanded: var[bool] = var(False, toggle_class="-expanded")

    def __init__(self, entry: ThinkingEntry) -> None:
        super().__init__(markup=False)
        self.entry = entry
        self.set_reactive(ThinkingView.expanded, entry.expanded)
        self.refresh_text()

    def refresh_text(self) -> None:
        text = visible_text(self.entry.text, multiline=True)
        if self.expanded:
            self.update(Text("▾ Thinking\n" + text))
            return
        lines = [line for line in text.splitlines() if line.strip()]
        tail = lines[-1].strip() if lines else ""
        label = "✻ Thinking…" if not self.entry.done else "▸ Thinking"
        self.update(Text(f"{label} {tail}".rstrip()))

    async def entry_changed(self) -> None:
        self.refresh_text()

    def watch_expanded(self, expanded: bool) -> None:
        self.entry.expanded = expanded
        self.refresh_text()

    def action_set_expanded(self, value: bool) -> None:
        self.expanded = value

    def on_click(self) -> None:
        self.expanded = not self.expanded


class NoticeView(Static):
    """An information, warning or error line."""

    ICONS = {"info": "ℹ", "warning": "⚠", "error": "✗"}

    def __init__(self, entry: NoticeEntry) -> None:
        super().__init__(self._line(entry), markup=False)
        self.entry = entry
        self.add_class(f"-{entry.level}")

    @classmethod
    def _line(cls, entry: NoticeEntry) -> Text:
        return Text(f"{cls.ICONS[entry.level]} {visible_text(entry.text, multiline=True)}")

    async def entry_changed(self) -> None:
        self.update(self._line(self.entry))


class TodoView(Static):
    """The agent's to-do list as a checklist."""

    MARKS = {"completed": "☑", "in_progress": "◐", "pending": "☐"}

    def __init__(self, entry: TodoEntry) -> None:
        super().__init__(markup=False)
        self.entry = entry
        self.refresh_todos()

    async def entry_changed(self) -> None:
        self.refresh_todos()

    def refresh_todos(self) -> None:
        """Show the entry's to-dos as a checklist."""
        lines = []
        for todo in self.entry.todos:
            mark = self.MARKS.get(str(todo.get("status", "pending")), "☐")
            title = todo.get("content") or todo.get("title") or todo.get("text") or ""
            lines.append(f"{mark} {visible_text(str(title))}")
        self.update(Text("\n".join(lines) or "(no to-dos)"))
