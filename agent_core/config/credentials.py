"""API keys saved by the first-run screen in ``MEWCODE_HOME/credentials.yaml`` (mode 0600).

Environment variables always win; the file is the fallback, so a key entered
once in the TUI works on later starts and in ``mewcode -p``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import yaml


def credentials_path(env: Mapping[str, str]) -> Path:
    home = env.get("MEWCODE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".mewcode")
    return Path(home).expanduser() / "credentials.yaml"


def saved_api_key(env: Mapping[str, str], provider: str) -> str | None:
    """The key saved for ``provider`` (anthropic / openai), or None."""
    try:
        data = yaml.safe_load(credentials_path(env).read_text(encoding="utf-8"))
    except (OSError, ValueError, yaml.YAMLError):  # ValueError: not UTF-8
        return None
    entry = data.get(provider) if isinstance(data, dict) else None
    key = entry.get("api_key") if isinstance(entry, dict) else None
    return key.strip() if isinstance(key, str) and key.strip() else None
