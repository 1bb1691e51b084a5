"""The /model picker: the catalog's models for the session's provider (docs/manual.md#the-full-screen-ui).

Fed a ``ModelList`` (``query_models``); dismisses with the chosen model's name, or None
on Esc. The current model is marked and not offered.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from agent_core.events import ModelChoice, ModelList


def window_text(tokens: int) -> str:
    """A context window in words: '200k', '1M'."""
    if tokens >= 1_000_000 and tokens % 1_000_000 < 100_000:
        return f"{tokens // 1_000_000}M"
    return f"{round(tokens / 1000)}k"


def model_row(choice: ModelChoice, *, current: bool) -> Table:
    row = Table.grid(expand=True, padding=(0, 1))
    row.add_column(width=1, no_wrap=True)
    row.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    row.add_column(justify="right", no_wrap=True, width=12)
    row.add_column(justify="right", no_wrap=True, width=18)
    name = Text(choice.model)
    if current:
        name.append("  (in use)", style="bold")
    price = (
        f"${choice.input_usd:g} / ${choice.output_usd:g}"
        if choice.input_usd or choice.output_usd
        else "no price"
    )
    row.add_row(
        Text("●" if current else " ", style="bold"),
        name,
        Text(f"{window_text(choice.context_window)} context", style="dim"),
        Text(price, style="dim"),
    )
    return row


class ModelOptions(OptionList):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Switch", id="mewcode.model.switch")
    ]


class ModelPickerScreen(ModalScreen[str | None]):
    """Pick one of the provider's models; dismisses with its name, or None on Esc."""

    CSS_PATH = "model_picker.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="mewcode.model.cancel"),
    ]

    def __init__(self, listing: ModelList) -> None:
        super().__init__()
        self.listing = listing

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = f"Models of {self.listing.provider}"
            yield Static(
                "↑/↓ to choose, Enter to switch, Esc to cancel. Prices: $ per million tokens "
                "in / out. Any other name: /model NAME.",
                id="hint",
            )
            yield ModelOptions(
                *(
                    Option(
                        model_row(m, current=m.model == self.listing.current),
                        m.model,
                        disabled=m.model == self.listing.current,
                    )
                    for m in self.listing.models
                ),
                id="models",
            )
        yield Footer()

    def on_mount(self) -> None:
        options = self.query_one(ModelOptions)
        options.focus()
        others = [i for i, m in enumerate(self.listing.models) if m.model != self.listing.current]
        if others:
            options.highlighted = others[0]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id != self.listing.current:
            self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Close without switching."""
        self.dismiss(None)
