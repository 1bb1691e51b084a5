"""Choose and build the provider from settings and environment variables."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from agent_core.config.credentials import saved_api_key
from agent_core.config.settings import Settings
from agent_core.errors import ProviderError
from agent_core.llm.base import Provider

PROVIDERS = ("anthropic", "openai", "demo")
DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-6", "openai": "gpt-4.1", "demo": "demo"}
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
URL_ENV = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL"}
# Local OpenAI-compatible servers (Ollama, llama.cpp, vLLM) accept any key, but the SDK wants one.
PLACEHOLDER_KEY = "no-key"


def _not_configured(key_env: str | None = None) -> ProviderError:
    keys = f"set {key_env}" if key_env else "set ANTHROPIC_API_KEY or OPENAI_API_KEY"
    return ProviderError(
        "not_configured",
        f"no API key configured: {keys} (or OPENAI_BASE_URL for a compatible server), "
        "or try `mewcode --demo`",
    )


def detect_provider(settings: Settings, env: Mapping[str, str]) -> str | None:
    """The provider to use: MEWCODE_PROVIDER or settings first, then whichever key is set."""
    explicit = (env.get("MEWCODE_PROVIDER") or settings.provider or "").strip().lower()
    if explicit:
        return explicit
    if settings.api_key_env and env.get(settings.api_key_env):
        return "openai" if settings.base_url else "anthropic"
    if env.get("ANTHROPIC_API_KEY"):
        return "anthropic"
    if env.get("OPENAI_API_KEY") or env.get("OPENAI_BASE_URL") or settings.base_url:
        return "openai"
    for name in ("anthropic", "openai"):
        if saved_api_key(env, name):
            return name
    return None


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
    if name not in PROVIDERS:
        raise ProviderError(
            "not_configured", f"unknown provider {name!r}: use anthropic, openai or demo"
        )
    if name == "demo":
        from agent_core.llm.demo_provider import DemoProvider

        return DemoProvider(cwd=cwd)
    model = model or env.get("MEWCODE_MODEL") or DEFAULT_MODELS[name]
    # settings.api_key_env and base_url come from the user's settings file only (never a
    # project's, see config/settings.py): where the key goes is the user's decision.
    key_env = settings.api_key_env or KEY_ENV[name]
    api_key = env.get(key_env) or saved_api_key(env, name)
    base_url = settings.base_url or env.get(URL_ENV[name]) or None
    retries = settings.limits.retries
    if name == "anthropic":
        if not api_key:
            raise _not_configured(settings.api_key_env)
        from agent_core.llm.anthropic_provider import AnthropicProvider

        return AnthropicProvider(
            model, api_key=api_key, base_url=base_url, retries=retries, api_key_env=key_env
        )
    if not api_key and not base_url:
        raise _not_configured(settings.api_key_env)
    from agent_core.llm.openai_provider import OpenAIProvider

    return OpenAIProvider(
        model,
        api_key=api_key or PLACEHOLDER_KEY,
        base_url=base_url,
        retries=retries,
        api_key_env=key_env,
    )
