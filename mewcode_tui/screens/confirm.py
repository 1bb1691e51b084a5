"""A yes/no question before something the user should not do by a slip: /mode
bypassPermissions (docs/manual.md#the-full-screen-ui).

Its "yes" key is guarded (``GuardedModal``): a key typed ahead into the prompt cannot
answer it. Dismisses with True for yes, False for no or Esc.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static

from mewcode_tui.screens.guarded_modal import DEFAULT_KEY_GUARD, GuardedModal


class ConfirmScreen(GuardedModal[bool]):
    """``question`` as the title, ``detail`` under it; y confirms, n or Esc declines."""

    CSS_PATH = "confirm.tcss"
    CHOICE_ACTIONS = frozenset({"confirm"})
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Yes", id="mewcode.confirm.yes"),
        Binding("n", "decline", "No", id="mewcode.confirm.no"),
        Binding("escape", "decline", "No", key_display="esc", id="mewcode.confirm.cancel"),
    ]

    def __init__(self, question: str, detail: str, *, key_guard: float = DEFAULT_KEY_GUARD):
        super().__init__(key_guard=key_guard)
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.question
            yield Static(self.detail, id="detail", markup=False)
            yield Static("y: yes · n or Esc: no", id="hint")
        yield Footer()

    def action_confirm(self) -> None:
        """Yes."""
        self.dismiss(True)

    def action_decline(self) -> None:
        """No."""
        self.dismiss(False)
