"""First-run screen (docs/manual.md#the-full-screen-ui): no key configured, so pick a provider or the demo.

``SetupScreen`` dismisses with a ``SetupChoice``; ``apply_setup`` persists it:
provider, model and base URL in ``MEWCODE_HOME/settings.yaml``, the API key in
``MEWCODE_HOME/credentials.yaml`` (mode 0600), never in the settings file.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal, get_args
from urllib.parse import urlsplit

import msgspec
import yaml
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import read_settings_mapping
from agent_core.errors import ConfigError
from agent_core.fsutil import atomic_write_text
from agent_core.llm.catalog import KEYED_PROVIDERS, PROVIDERS

# A way to start: a provider name from agent_core/llm/catalog.py, or COMPATIBLE.
Method = str
COMPATIBLE = "compatible"  # a provider's API at a base URL the user gives (Ollama, vLLM…)
# What each way needs on the form; the screen's CSS class is "-" + the kind.
MethodKind = Literal["key", "server", "offline"]


class SetupMethod(msgspec.Struct, frozen=True):
    """One option of the first-run screen."""

    key: Method
    label: str
    hint: str
    kind: MethodKind


def _methods() -> tuple[SetupMethod, ...]:
    """Paste a key for each keyed provider, a compatible server, then the offline ones."""
    keyed = [SetupMethod(n, PROVIDERS[n].label, PROVIDERS[n].hint, "key") for n in KEYED_PROVIDERS]
    offline = [
        SetupMethod(n, e.label, e.hint, "offline") for n, e in PROVIDERS.items() if not e.key_env
    ]
    server = SetupMethod(
        COMPATIBLE,
        "Use an OpenAI-compatible server (base URL + model)",
        "Any OpenAI-style chat API: Ollama, vLLM, LM Studio, OpenRouter…",
        "server",
    )
    return (*keyed, server, *offline)


METHODS: tuple[SetupMethod, ...] = _methods()
_BY_KEY = {m.key: m for m in METHODS}


def _server_provider() -> str:
    """The provider that talks to compatible servers at a base URL."""
    return next(name for name, entry in PROVIDERS.items() if entry.keyless_servers)


class SetupChoice(msgspec.Struct, frozen=True):
    """What the user picked on the first-run screen."""

    provider: str  # a name from agent_core/llm/catalog.py
    api_key: str | None = None
    base_url: str | None = None
    model: str | None = None


def credentials_file(paths: MewcodePaths) -> Path:
    """Where API keys live: ``MEWCODE_HOME/credentials.yaml``, readable by the owner only."""
    return paths.home / "credentials.yaml"


def validate_choice(method: Method, api_key: str, base_url: str, model: str) -> SetupChoice:
    """Turn the form into a ``SetupChoice``; raises ConfigError with a one-line reason."""
    api_key, base_url, model = api_key.strip(), base_url.strip(), model.strip()
    kind = _BY_KEY[method].kind
    if kind == "offline":
        return SetupChoice(method)
    if kind == "key":
        if not api_key:
            raise ConfigError("Paste an API key first.")
        if any(ch.isspace() for ch in api_key):
            raise ConfigError("An API key has no spaces; check what was pasted.")
        return SetupChoice(method, api_key=api_key)
    url = urlsplit(base_url)
    if url.scheme not in ("http", "https") or not url.netloc:
        raise ConfigError(
            "The base URL must start with http:// or https://, e.g. http://localhost:11434/v1"
        )
    if not model:
        raise ConfigError("Name the model the server should run, e.g. llama3.1")
    return SetupChoice(_server_provider(), api_key=api_key or None, base_url=base_url, model=model)


def apply_setup(choice: SetupChoice, paths: MewcodePaths) -> None:
    """Persist a setup choice; the demo is a trial and saves nothing."""
    if not PROVIDERS[choice.provider].key_env:
        return
    settings = read_settings_mapping(paths.user_settings)
    settings["provider"] = choice.provider
    for key in ("model", "base_url"):
        value = getattr(choice, key)
        if value:
            settings[key] = value
        else:
            settings.pop(key, None)  # a stale URL or model would point the new key elsewhere
    if choice.api_key:
        creds = read_settings_mapping(credentials_file(paths))
        creds[choice.provider] = {"api_key": choice.api_key}
        header = "# MewCode API keys, one per provider. Keep this file private (mode 0600).\n"
        atomic_write_text(
            credentials_file(paths), header + yaml.safe_dump(creds, sort_keys=True), private=True
        )
    atomic_write_text(
        paths.user_settings,
        yaml.safe_dump(settings, sort_keys=False, allow_unicode=True),
        private=True,
    )


class SetupScreen(Screen[SetupChoice]):
    """Welcome screen shown when no provider is configured."""

    CSS_PATH = "setup.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Continue", id="mewcode.setup.submit"),
        Binding("ctrl+d", "demo", "Offline demo", id="mewcode.setup.demo"),
        Binding("escape", "quit_setup", "Quit", id="mewcode.setup.quit"),
    ]

    method: var[Method] = var(METHODS[0].key)

    def compose(self) -> ComposeResult:
        with Vertical(id="card"):
            yield Static("Welcome to MewCode", id="title")
            yield Static("No model provider is set up yet. Choose how to start:", id="intro")
            yield OptionList(*(Option(m.label, id=m.key) for m in METHODS), id="methods")
            yield Static(METHODS[0].hint, id="hint")
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
        chosen = _BY_KEY[method]
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
        if _BY_KEY[self.method].kind == "offline":
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
            choice = validate_choice(
                self.method,
                self.query_one("#api-key", Input).value,
                self.query_one("#base-url", Input).value,
                self.query_one("#model", Input).value,
            )
        except ConfigError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        self.dismiss(choice)
