"""What MewCode makes of the keys in Claude Code's settings.json files.

Read: the keys ``RawSettings`` declares with ``claude=True`` (settings_model.py):
``permissions`` (allow, deny, ask, additionalDirectories, defaultMode), ``env``,
``model`` and ``hooks``. Every other key is listed in one notice line per file,
never fatal; those that change what may run or be read in Claude Code are named
as such, so a stricter setting is never dropped without a word. Nothing deciding
where credentials go (``apiKeyHelper``...) is used from any of these files.
"""

from __future__ import annotations

from pathlib import Path

from agent_core.config.settings_model import SETTINGS_KEYS

USED = frozenset(name for name, key in SETTINGS_KEYS.items() if key.claude)
QUIET = frozenset({"$schema"})  # for editors only: not worth a notice
# In Claude Code these loosen or tighten what runs, or choose credentials.
CHANGES_WHAT_RUNS = frozenset({
    "sandbox", "disableAllHooks", "allowManagedHooksOnly", "enableAllProjectMcpServers",
    "enabledMcpjsonServers", "disabledMcpjsonServers", "allowedMcpServers",
    "deniedMcpServers", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport",
    "forceLoginMethod", "forceLoginOrgUUID", "otelHeadersHelper",
    "allowManagedPermissionRulesOnly", "permissions.disableBypassPermissionsMode",
})  # fmt: skip
KNOWN_PERMISSION_KEYS = ("disableBypassPermissionsMode",)  # Claude Code's, not used here
# What an unknown defaultMode stops with, for the Claude Code modes MewCode lacks.
MODE_NOTES = {
    "dontAsk": "Claude Code's dontAsk (deny whatever would ask) has no MewCode equivalent",
}


def unused_notice(file: Path, keys: list[str]) -> str:
    """One line naming the keys of a Claude Code file MewCode does not use."""
    changing = [k for k in keys if k in CHANGES_WHAT_RUNS]
    plain = [k for k in keys if k not in CHANGES_WHAT_RUNS]
    parts = []
    if plain:
        parts.append(", ".join(plain))
    if changing:
        parts.append(
            f"and, although they change what may run in Claude Code, {', '.join(changing)}"
            if plain
            else f"{', '.join(changing)}, although they change what may run in Claude Code"
        )
    return f"{file}: not used by MewCode: {' '.join(parts)}"
