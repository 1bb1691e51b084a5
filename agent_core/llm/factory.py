"""Choose and build the provider from settings and environment variables."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from agent_core.config.credentials import saved_api_key
from agent_core.config.settings import Settings
from agent_core.errors import ProviderError
from agent_core.llm.base import Provider
from agent_core.llm.catalog import (
    KEYED_PROVIDERS,
    PROVIDER_NAMES,
    PROVIDERS,
    ProviderEntry,
    provider_class,
)

# Local OpenAI-compatible servers (Ollama, llama.cpp, vLLM) accept any key, but the SDK wants one.
PLACEHOLDER_KEY = "no-key"


def _not_configured(entry: ProviderEntry, key_env: str) -> ProviderError:
    """The one line naming this provider's missing key (and its base URL when that will do)."""
    server = f" (or {entry.url_env} for a compatible server)" if entry.keyless_servers else ""
    return ProviderError(
        "not_configured",
        f"no API key configured for {entry.title}: set {key_env}{server}, or try `mewcode --demo`",
    )


def detect_provider(settings: Settings, env: Mapping[str, str]) -> str | None:
    """The provider to use: MEWCODE_PROVIDER or settings first, then whichever key is set."""
    explicit = (env.get("MEWCODE_PROVIDER") or settings.provider or "").strip().lower()
    if explicit:
        return explicit
    if settings.api_key_env and env.get(settings.api_key_env):
        # A key under the user's own variable: a base URL means a compatible server.
        return _compatible() if settings.base_url else KEYED_PROVIDERS[0]
    for name in KEYED_PROVIDERS:
        entry = PROVIDERS[name]
        if entry.key_env and env.get(entry.key_env):
            return name
        if entry.keyless_servers and (
            settings.base_url or (entry.url_env and env.get(entry.url_env))
        ):
            return name
    for name in KEYED_PROVIDERS:
        if saved_api_key(env, name):
            return name
    return None


def _compatible() -> str:
    """The provider that talks to OpenAI-compatible servers at a base URL."""
    return next(name for name, entry in PROVIDERS.items() if entry.keyless_servers)


def make_provider(
    name: str,
    model: str | None,
    *,
    settings: Settings,
    env: Mapping[str, str],
    cwd: Path,
) -> Provider:
    """Build the named provider; raises ProviderError("not_configured") when it cannot work."""
    name = name.strip().lower()
    entry = PROVIDERS.get(name)
    if entry is None:
        raise ProviderError(
            "not_configured", f"unknown provider {name!r}: use {_spelled(PROVIDER_NAMES)}"
        )
    if entry.key_env is None:  # the offline demo: it only needs the project
        return provider_class(name)(cwd=cwd)
    model = model or env.get("MEWCODE_MODEL") or entry.default_model
    # settings.api_key_env and base_url come from the user's settings file only (never a
    # project's, see config/settings.py): where the key goes is the user's decision.
    key_env = settings.api_key_env or entry.key_env
    api_key = env.get(key_env) or saved_api_key(env, name)
    base_url = settings.base_url or (env.get(entry.url_env) if entry.url_env else None) or None
    if not api_key and not (entry.keyless_servers and base_url):
        raise _not_configured(entry, key_env)
    provider: Provider = provider_class(name)(
        model,
        api_key=api_key or PLACEHOLDER_KEY,
        base_url=base_url,
        retries=settings.limits.retries,
        api_key_env=key_env,
    )
    return provider


def _spelled(names: tuple[str, ...]) -> str:
    """Names the way a sentence lists them: "a, b or c"."""
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
