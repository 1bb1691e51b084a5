"""The one table of model providers: name -> how to build it and what to show for it.

A new provider is its own ``agent_core/llm/<name>_provider.py`` plus one entry
here; the factory, ``--provider``, ``/model``, the first-run screen and the
SDK warm-up read this table. Its classes are imported only when a provider is
built, so this module costs nothing before the first frame.
"""

from __future__ import annotations

from typing import Any

import msgspec


class ProviderEntry(msgspec.Struct, frozen=True):
    """One provider: its class, default model, environment variables and setup texts."""

    provider_class: str  # "module:Class", imported when the provider is built
    title: str  # the vendor's name in messages ("no API key configured for OpenAI")
    default_model: str  # must have an entry in llm/pricing.py (a test checks)
    label: str  # the first-run screen's option
    hint: str  # shown under the options when this one is highlighted
    key_env: str | None = None  # holds the API key; None: the provider needs no credentials
    url_env: str | None = None  # holds a base URL that replaces the vendor's
    sdk_module: str | None = None  # the vendor SDK, imported ahead of the first request
    keyless_servers: bool = False  # a server at a base URL may need no key (Ollama, vLLM)
    # What the /model picker offers besides the default (each must have a price entry).
    models: tuple[str, ...] = ()


PROVIDERS: dict[str, ProviderEntry] = {
    "anthropic": ProviderEntry(
        title="Anthropic",
        provider_class="agent_core.llm.anthropic_provider:AnthropicProvider",
        default_model="claude-sonnet-4-6",
        label="Paste an Anthropic API key",
        hint="Get one at console.anthropic.com. Saved privately in credentials.yaml.",
        key_env="ANTHROPIC_API_KEY",
        url_env="ANTHROPIC_BASE_URL",
        sdk_module="anthropic",
        models=("claude-opus-4-6", "claude-haiku-4-5", "claude-sonnet-5", "claude-opus-5"),
    ),
    "openai": ProviderEntry(
        title="OpenAI",
        provider_class="agent_core.llm.openai_provider:OpenAIProvider",
        default_model="gpt-4.1",
        label="Paste an OpenAI API key",
        hint="Get one at platform.openai.com. Saved privately in credentials.yaml.",
        key_env="OPENAI_API_KEY",
        url_env="OPENAI_BASE_URL",
        sdk_module="openai",
        keyless_servers=True,
        models=("gpt-4.1-mini", "gpt-4o", "gpt-5", "gpt-5-mini", "o3", "o4-mini"),
    ),
    "demo": ProviderEntry(
        title="the demo",
        provider_class="agent_core.llm.demo_provider:DemoProvider",
        default_model="demo",
        label="Try the offline demo (no key, scripted answers)",
        hint=(
            "A built-in scripted model drives real tools offline, in a scratch copy of "
            "this project deleted when you quit. Nothing is saved."
        ),
    ),
}

PROVIDER_NAMES: tuple[str, ...] = tuple(PROVIDERS)


def split_provider(name: str) -> tuple[str | None, str]:
    """'openai:gpt-4o' -> ('openai', 'gpt-4o'); a name without a known provider prefix
    ('llama3:8b', 'gpt-4o') is all model: (None, name)."""
    prefix, sep, rest = name.strip().partition(":")
    if sep and prefix in PROVIDER_NAMES:
        return prefix, rest.strip()
    return None, name.strip()


def catalog_models(provider: str) -> tuple[str, ...]:
    """The models the /model picker offers for ``provider``: its default first; () for a
    provider the table does not know."""
    entry = PROVIDERS.get(provider)
    if entry is None:
        return ()
    return (entry.default_model, *(m for m in entry.models if m != entry.default_model))


# Providers reached with an API key, in the order a key in the environment picks them.
KEYED_PROVIDERS: tuple[str, ...] = tuple(n for n, e in PROVIDERS.items() if e.key_env)


def provider_class(name: str) -> Any:
    """The class of a provider, imported now; KeyError for a name not in the table."""
    import importlib  # here: the table itself is read before the first frame

    module, _, attr = PROVIDERS[name].provider_class.partition(":")
    return getattr(importlib.import_module(module), attr)
