"""First-run screen (docs/manual.md#the-full-screen-ui): no key configured, so pick a provider or the demo.

The screen is pure: it shows the ways to start it is given (``SetupMethod``s, made from
the provider catalog by mewcode_tui/setup_methods.py), checks the form with the
validator it is given and dismisses with a ``SetupChoice``; mewcode_tui/setup_store.py
saves it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Literal, get_args

import msgspec
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from agent_core.errors import ConfigError

# A way to start: a provider name from agent_core/llm/catalog.py, or "compatible".
Method = str
# What each way needs on the form; the screen's CSS class is "-" + the kind.
MethodKind = Literal["key", "server", "offline"]


class SetupMethod(msgspec.Struct, frozen=True):
    """One option of the first-run screen."""

    key: Method
    label: str
    hint: str
    kind: MethodKind


class SetupChoice(msgspec.Struct, frozen=True):
    """What the user picked on the first-run screen."""

    provider: str  # a name from agent_core/llm/catalog.py
    api_key: str | None = None
    base_url: str | None = None
    model: str | None = None


# The form (method, API key, base URL, model) as a choice; raises ConfigError with the
# one-line reason the form shows.
SetupValidator = Callable[[SetupMethod, str, str, str], SetupChoice]


class SetupScreen(Screen[SetupChoice]):
    """Welcome screen shown when no provider is configured."""

    CSS_PATH = "setup.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Continue", id="mewcode.setup.submit"),
        Binding("ctrl+d", "demo", "Offline demo", id="mewcode.setup.demo"),
        Binding("escape", "quit_setup", "Quit", id="mewcode.setup.quit"),
    ]

    method: var[Method] = var("")

    def __init__(self, methods: Sequence[SetupMethod], validate: SetupValidator) -> None:
        if not methods:
            raise ValueError("the setup screen needs at least one way to start")
        super().__init__()
        self.methods = tuple(methods)
        self.validate = validate
        self._by_key = {m.key: m for m in self.methods}
        self.set_reactive(SetupScreen.method, self.methods[0].key)

    def compose(self) -> ComposeResult:
        with Vertical(id="card"):
            yield Static("Welcome to MewCode", id="title")
            yield Static("No model provider is set up yet. Choose how to start:", id="intro")
            yield OptionList(*(Option(m.label, id=m.key) for m in self.methods), id="methods")
            yield Static(self.methods[0].hint, id="hint")
            with Vertical(id="form"):
                with Horizontal(id="field-url", classes="field"):
                    yield Label("Base URL")
                    yield Input(placeholder="e.g. http://localhost:11434/v1", id="base-url")
                with Horizontal(id="field-model", classes="field"):
                    yield Label("Model")
                    yield Input(placeholder="e.g. llama3.1", id="model")
                with Horizontal(id="field-key", classes="field"):
                    yield Label("API key", id="key-label")
                    yield Input(placeholder="paste the key here", password=True, id="api-key")
            yield Static("", id="error")
            yield Button("Continue", variant="primary", id="continue")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#methods", OptionList).highlighted = 0
        self.watch_method(self.method)

    def watch_method(self, method: Method) -> None:
        chosen = self._by_key[method]
        for kind in get_args(MethodKind):
            self.set_class(kind == chosen.kind, f"-{kind}")
        if not self.is_mounted:
            return
        self.query_one("#hint", Static).update(chosen.hint)
        label = "API key (optional)" if chosen.kind == "server" else "API key"
        self.query_one("#key-label", Label).update(label)
        self.query_one("#error", Static).update("")

    @on(OptionList.OptionHighlighted, "#methods")
    def _method_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.method = event.option.id or self.method

    @on(OptionList.OptionSelected, "#methods")
    def _method_selected(self, event: OptionList.OptionSelected) -> None:
        self.method = event.option.id or self.method
        if self._by_key[self.method].kind == "offline":
            self.action_submit()
        else:
            self.focus_next(Input)

    @on(Input.Submitted)
    @on(Button.Pressed, "#continue")
    def _form_submitted(self) -> None:
        self.action_submit()

    def action_quit_setup(self) -> None:
        """Leave without choosing: MewCode exits (with the setup's exit code, 1)."""
        self.dismiss(None)

    def action_demo(self) -> None:
        """Start the offline demo."""
        self.dismiss(SetupChoice("demo"))

    def action_submit(self) -> None:
        """Validate the form and finish, or show why not."""
        try:
            choice = self.validate(
                self._by_key[self.method],
                self.query_one("#api-key", Input).value,
                self.query_one("#base-url", Input).value,
                self.query_one("#model", Input).value,
            )
        except ConfigError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        self.dismiss(choice)
