"""Full-screen diff viewer: one file's diff, unified or side by side."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from agent_core.terminal_text import visible_text
from mewcode_tui.widgets.diff_panel import DiffPanel

VIEWER_MAX_LINES = 5_000


class DiffScreen(ModalScreen[None]):
    """Shows a unified diff full screen; ``s``/``u`` switch layouts, Esc or ``q`` close."""

    CSS_PATH = "diff_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "layout(True)", "Side by side", id="mewcode.diff.side_by_side"),
        Binding("u", "layout(False)", "Unified", id="mewcode.diff.unified"),
        Binding("escape,q", "close", "Close", key_display="esc/q", id="mewcode.diff.close"),
    ]

    def __init__(self, unified_diff: str, path: str, *, split: bool = False) -> None:
        super().__init__()
        self.unified_diff = unified_diff
        self.path = path
        self._split = split

    def compose(self) -> ComposeResult:
        # Long lines wrap (as Claude Code's do): at 80 columns nothing is cut off.
        panel = DiffPanel(
            self.unified_diff, self.path, self._split, max_lines=VIEWER_MAX_LINES, wrap=True
        )
        yield Static(
            Content.from_markup(
                "$path  [$text-success]+$added[/] [$text-error]-$removed[/]  [dim]$note[/]",
                path=visible_text(self.path),
                added=panel.added,
                removed=panel.removed,
                note=self._hidden_note(panel),
            ),
            id="header",
        )
        with VerticalScroll(id="body"):
            yield panel
        yield Footer()

    @staticmethod
    def _hidden_note(panel: DiffPanel) -> str:
        hidden = panel.parsed.hidden_lines
        return (
            f"(first {panel.parsed.shown_lines:,} lines; {hidden:,} more not shown)"
            if hidden
            else ""
        )

    def on_mount(self) -> None:
        self.query_one("#body", VerticalScroll).focus()

    @property
    def panel(self) -> DiffPanel:
        return self.query_one(DiffPanel)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "layout" and self.is_mounted:
            # Dim the key for the layout already on screen.
            return None if parameters == (self.panel.split,) else True
        return True

    def action_layout(self, split: bool) -> None:
        """Show the diff side by side (True) or unified (False)."""
        self.panel.split = split
        self.refresh_bindings()

    def action_close(self) -> None:
        """Close the viewer."""
        self.dismiss(None)
