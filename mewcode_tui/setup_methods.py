"""The ways to start offered on the first-run screen, and the check of its form.

Composition-level, beside session_start.py: the options come from the provider
catalog, so mewcode_tui/screens/setup.py is given them as data.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from agent_core.errors import ConfigError
from agent_core.llm.catalog import KEYED_PROVIDERS, PROVIDERS
from mewcode_tui.screens.setup import SetupChoice, SetupMethod

COMPATIBLE = "compatible"  # a provider's API at a base URL the user gives (Ollama, vLLM…)


def setup_methods() -> tuple[SetupMethod, ...]:
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


def _server_provider() -> str:
    """The provider that talks to compatible servers at a base URL."""
    return next(name for name, entry in PROVIDERS.items() if entry.keyless_servers)


def validate_choice(method: SetupMethod, api_key: str, base_url: str, model: str) -> SetupChoice:
    """Turn the form into a ``SetupChoice``; raises ConfigError with a one-line reason."""
    api_key, base_url, model = api_key.strip(), base_url.strip(), model.strip()
    if method.kind == "offline":
        return SetupChoice(method.key)
    if method.kind == "key":
        if not api_key:
            raise ConfigError("Paste an API key first.")
        if any(ch.isspace() for ch in api_key):
            raise ConfigError("An API key has no spaces; check what was pasted.")
        return SetupChoice(method.key, api_key=api_key)
    url = urlsplit(base_url)
    if url.scheme not in ("http", "https") or not url.netloc:
        raise ConfigError(
            "The base URL must start with http:// or https://, e.g. http://localhost:11434/v1"
        )
    if not model:
        raise ConfigError("Name the model the server should run, e.g. llama3.1")
    return SetupChoice(_server_provider(), api_key=api_key or None, base_url=base_url, model=model)
