"""The popup list of completions shown above the input.

File names and command descriptions come from the project: they are shown through
``visible_text``; the value put into the prompt stays the exact name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agent_core.terminal_text import visible_text

if TYPE_CHECKING:
    from mewcode_tui.completion import Candidate, CompletionQuery


class CompletionMenu(OptionList, can_focus=False):
    """Candidates for the token at the cursor; the input drives it with its keys."""

    DEFAULT_CSS = """
    CompletionMenu {
        display: none;
        height: auto;
        max-height: 10;
        margin: 0 1;
        border: round $accent 60%;
        background: $surface;
    }
    CompletionMenu.-open {
        display: block;
    }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.candidates: list[Candidate] = []
        self.query_shown: CompletionQuery | None = None

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def show(self, query: CompletionQuery, candidates: list[Candidate]) -> None:
        """Show ``candidates`` for ``query``; hides itself when there are none."""
        self.query_shown = query
        self.candidates = candidates
        self.clear_options()
        if not candidates:
            self.hide()
            return
        options = []
        labels = [visible_text(candidate.label) for candidate in candidates]
        width = max(len(label) for label in labels)
        for candidate, shown in zip(candidates, labels, strict=True):
            label = Text(shown.ljust(width), style="bold")
            if candidate.detail:
                label.append("  " + visible_text(candidate.detail), style="dim")
            options.append(Option(label))
        self.add_options(options)
        self.highlighted = 0
        self.add_class("-open")

    def hide(self) -> None:
        self.remove_class("-open")
        self.query_shown = None

    def move(self, delta: int) -> None:
        if not self.candidates:
            return
        index = (self.highlighted or 0) + delta
        self.highlighted = index % len(self.candidates)

    @property
    def selected(self) -> Candidate | None:
        if not self.is_open or self.highlighted is None or not self.candidates:
            return None
        return self.candidates[self.highlighted]
