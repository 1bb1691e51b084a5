"""Where a provider's API key comes from, told without the key: for /doctor."""

from __future__ import annotations

from collections.abc import Mapping

from agent_core.config.credentials import credentials_path, saved_api_key
from agent_core.config.settings_model import Settings
from agent_core.llm.catalog import PROVIDERS


def key_source(provider: str, settings: Settings, env: Mapping[str, str]) -> tuple[bool, str]:
    """(found, where): the variable's name or the credentials file, never the key itself.

    Read in the order ``make_provider`` reads them: the settings' ``api_key_env`` or the
    provider's variable, then the credentials file; a keyless server at a base URL needs none.
    """
    entry = PROVIDERS.get(provider)
    if entry is None:
        return False, f"unknown provider {provider!r}"
    if entry.key_env is None:
        return True, "no key needed"
    variable = settings.api_key_env or entry.key_env
    if env.get(variable):
        return True, f"environment variable {variable}"
    if saved_api_key(env, provider):
        return True, f"credentials file {credentials_path(env)}"
    base_url = settings.base_url or (env.get(entry.url_env) if entry.url_env else None)
    if entry.keyless_servers and base_url:
        return True, "no key: a compatible server at the base URL"
    return False, f"no key in {variable} nor in {credentials_path(env)}"
