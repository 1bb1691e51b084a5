"""Ctrl+R: search the prompts sent before in this project, newest first.

Type to filter (every word, in any order, case ignored); ↑/↓ or Ctrl+R again move
to an older match; Enter puts the chosen prompt in the input to edit or send; Esc
leaves the input as it was. Dismisses with the prompt, or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from agent_core.terminal_text import visible_text

SHOWN = 200  # matches listed at most: the newest are the ones wanted
LINE_CHARS = 200


def matching(entries: Sequence[str], query: str, limit: int = SHOWN) -> list[str]:
    """The entries that hold every word of ``query``, newest first, each once."""
    words = query.lower().split()
    found: list[str] = []
    seen: set[str] = set()
    for entry in reversed(entries):
        if entry in seen:
            continue
        low = entry.lower()
        if all(word in low for word in words):
            found.append(entry)
            seen.add(entry)
            if len(found) == limit:
                break
    return found


def one_line(text: str) -> str:
    """A prompt on one line, its control characters shown escaped."""
    flat = visible_text(" ⏎ ".join(line.strip() for line in text.splitlines()))
    return flat if len(flat) <= LINE_CHARS else flat[: LINE_CHARS - 1] + "…"


class HistorySearchScreen(ModalScreen[str | None]):
    """Reverse search over ``entries`` (oldest first, as the history keeps them)."""

    CSS_PATH = "history_search.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="mewcode.history.cancel"),
        Binding("down,ctrl+r", "move(1)", "Older", priority=True, id="mewcode.history.older"),
        Binding("up", "move(-1)", "Newer", priority=True, id="mewcode.history.newer"),
    ]

    def __init__(self, entries: Sequence[str], query: str = "") -> None:
        super().__init__()
        self.entries = list(entries)
        self.query_text = query
        self.found: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "Search prompt history"
            yield Input(self.query_text, placeholder="type to search", id="query")
            yield OptionList(id="matches")
            yield Static("Enter: put in the prompt · ↑/↓ or Ctrl+R: move · Esc: cancel", id="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._show(self.query_text)

    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        self._show(event.value)

    def _show(self, query: str) -> None:
        self.found = matching(self.entries, query)
        matches = self.query_one(OptionList)
        matches.clear_options()
        if self.found:
            matches.add_options([Option(one_line(entry)) for entry in self.found])
            matches.highlighted = 0
        else:
            matches.add_option(Option("(no prompt matches)", disabled=True))

    def action_move(self, step: int) -> None:
        if not self.found:
            return
        matches = self.query_one(OptionList)
        index = (matches.highlighted or 0) + step
        matches.highlighted = max(0, min(index, len(self.found) - 1))

    @on(Input.Submitted, "#query")
    def _chosen(self, event: Input.Submitted) -> None:
        index = self.query_one(OptionList).highlighted
        if self.found and index is not None:
            self.dismiss(self.found[index])
        else:
            self.dismiss(None)

    @on(OptionList.OptionSelected, "#matches")
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        if self.found:
            self.dismiss(self.found[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)
