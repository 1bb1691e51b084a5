"""Saving the first-run choice: provider, model and base URL in ``MEWCODE_HOME/settings.yaml``,
the API key in ``MEWCODE_HOME/credentials.yaml`` (mode 0600), never in the settings file.

Composition-level, beside session_start.py: mewcode_tui/screens/setup.py only returns
the ``SetupChoice``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import read_settings_mapping
from agent_core.fsutil import atomic_write_text
from agent_core.llm.catalog import PROVIDERS

if TYPE_CHECKING:
    from mewcode_tui.screens.setup import SetupChoice


def credentials_file(paths: MewcodePaths) -> Path:
    """Where API keys live: ``MEWCODE_HOME/credentials.yaml``, readable by the owner only."""
    return paths.home / "credentials.yaml"


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
