"""Settings: our YAML files and Claude Code's JSON ones, merged in order, validated entry by entry.

The files, in order; a later one wins for single values (model, mode...), rules
and directories accumulate, ``env`` is merged name by name:

1. ``~/.claude/settings.json`` (Claude Code's user file)
2. ``MEWCODE_HOME/settings.yaml`` (the user's)
3. ``.claude/settings.json`` (the project's, Claude Code's)
4. ``.mewcode/settings.yaml`` (the project's)
5. ``.claude/settings.local.json``
6. ``.mewcode/settings.local.yaml``
7. ``--settings FILE|JSON`` (``cli_settings``), the user's own for this run

Of a Claude Code file, ``permissions``, ``env``, ``model`` and ``hooks`` are read
(claude_keys.py); the rest is named in one notice line.

Every top-level key, limit, sandbox key and permission rule is checked on its
own: an invalid one is reported (file, line, reason) and dropped alone, and
the rest of the file applies. What cannot be dropped without loosening
something (a permissions section that cannot be read, a malformed deny or ask
rule, an unknown mode) raises ``PermissionsUnreadable``: mewcode stops rather
than run without the deny rules.

Files 3 to 6 come from the repository checkout: until the project is trusted
they only make things stricter (see trust.py), and where credentials go
(``base_url``, ``api_key_env``) is read from the user's file only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.config.program_trust import trusted_programs
from agent_core.config.settings_edit import (
    append_rule,
    edit_settings,
    read_settings_mapping,
    remove_rule,
    set_value,
)
from agent_core.config.settings_env import PROJECT_REFUSED
from agent_core.config.settings_file import load_settings_file, read_claude_settings
from agent_core.config.settings_model import (
    CREDENTIAL_KEYS,
    MODES,
    RULE_KINDS,
    SETTINGS_KEYS,
    Limits,
    Mode,
    PermissionSettings,
    PermissionsUnreadable,
    RawSettings,
    RuleEntry,
    SandboxSettings,
    Settings,
    SkippedSettings,
)
from agent_core.config.trust import (
    credentials_notice,
    is_trusted,
    stricter_mode,
    untrusted_notice,
)
from agent_core.decision import Decision
from agent_core.errors import ConfigError

__all__ = [
    "MODES",
    "Limits",
    "Mode",
    "PermissionsUnreadable",
    "RuleEntry",
    "Settings",
    "append_rule",
    "edit_settings",
    "load_settings",
    "load_settings_file",
    "read_settings_mapping",
    "remove_rule",
    "set_value",
]

# --- merging the files -------------------------------------------------------------------


def settings_sources(paths: MewcodePaths, user_home: Path) -> list[tuple[Path, bool]]:
    """Every settings file in merge order, each once, with whether it is the user's own."""
    candidates = [
        (user_home / ".claude" / "settings.json", True),
        (paths.user_settings, True),
        (paths.project / ".claude" / "settings.json", False),
        (paths.project_settings, False),
        (paths.project / ".claude" / "settings.local.json", False),
        (paths.local_settings, False),
    ]
    seen: set[Path] = set()
    sources = []
    for file, user in candidates:
        try:
            key = file.resolve()
        except OSError:
            key = file
        if key not in seen:  # the project is HOME or MEWCODE_HOME's parent: read as the user's
            seen.add(key)
            sources.append((file, user))
    return sources


def load_settings(
    paths: MewcodePaths,
    *,
    trust_project: bool = False,
    cli_settings: str | None = None,
    user_home: Path | None = None,
) -> Settings:
    """Merge the settings files in order (see the module docstring), then ``cli_settings``.

    The project's files apply in full only when the project is trusted (listed in
    the user's ``trustedProjects``, or ``trust_project`` for this run); before that
    they only make things stricter, and what they skipped is reported. Invalid
    entries land in ``problems``; PermissionsUnreadable propagates.
    """
    merged = Settings()
    limits: dict[str, Any] = {}
    loaded = [
        (file, user, _load(file, merged))
        for file, user in settings_sources(paths, user_home or Path.home())
    ]
    ours = next((raw for file, _, raw in loaded if file == paths.user_settings), None)
    trusted_list = (ours.trustedProjects or []) if ours else []
    merged.project_trusted = trust_project or is_trusted(paths.project, trusted_list)
    if trust_project:
        merged.trusted_programs = None  # as the folder is now, for this run
    elif merged.project_trusted:
        merged.trusted_programs = frozenset(trusted_programs(paths))
    for file, user, raw in loaded:
        if raw is None:
            continue
        if user:
            _apply(merged, raw, file, limits)
            continue
        _report_ignored(merged, raw, file, paths.user_settings)
        if merged.project_trusted:
            _apply(merged, raw, file, limits, project=True)
        else:
            _apply_stricter(merged, raw, file)
    if cli_settings is not None:
        raw, source = _load_cli_settings(cli_settings)
        merged.problems.extend(raw.problems)
        _apply(merged, raw, source, limits)
    merged.limits = msgspec.convert(limits, Limits) if limits else Limits()
    return merged


CLI_SOURCE = "--settings"  # where rules given as JSON text on the command line come from


def _load_cli_settings(value: str) -> tuple[RawSettings, Path]:
    """``--settings``: a JSON object's text, or a JSON (Claude Code's) or YAML (ours) file.

    The user named it for this run, so what cannot be read stops mewcode.
    """
    if value.lstrip().startswith("{"):
        return read_claude_settings(value, Path(CLI_SOURCE)), Path(CLI_SOURCE)
    file = Path(value).expanduser()
    raw = load_settings_file(file)
    if raw is None:
        raise PermissionsUnreadable(
            f"{CLI_SOURCE} {value}: no such file; mewcode stops rather than run without it"
        )
    return raw, file


def _load(file: Path, merged: Settings) -> RawSettings | None:
    try:
        raw = load_settings_file(file)
    except PermissionsUnreadable:
        raise
    except ConfigError as exc:
        merged.problems.append(str(exc))
        return None
    if raw is not None:
        merged.problems.extend(raw.problems)
    return raw


def _apply(
    merged: Settings, raw: RawSettings, file: Path, limits: dict[str, Any], *, project: bool = False
) -> None:
    """Everything the file sets (what only the user's files set, from theirs alone)."""
    for name, key in SETTINGS_KEYS.items():
        value = getattr(raw, name)
        if key.merge == "own" or value is None or (project and key.who != "anyone"):
            continue
        if key.merge == "update":
            getattr(merged, name).update(value)
        else:
            setattr(merged, name, dict(value) if isinstance(value, dict) else value)
    if raw.permissions:
        perms = raw.permissions
        _add_rules(merged, perms, file, RULE_KINDS)
        merged.additional_directories.extend(perms.additionalDirectories)
        if perms.defaultMode:
            merged.default_mode = perms.defaultMode
    if raw.env:
        env = _env(raw.env, file, merged.problems, project)
        merged.env.update(env)
        if not project:  # hooks run outside the sandbox: only the user's own env reaches them
            merged.hook_env.update(env)
        else:
            for name in env:
                merged.hook_env.pop(name, None)  # the project's value wins for commands only
    if raw.limits:
        limits.update(raw.limits)
    if raw.sandbox:
        _merge_sandbox(merged, raw.sandbox, file, not project)


def _add_rules(
    merged: Settings, perms: PermissionSettings, file: Path, kinds: tuple[Decision, ...]
) -> None:
    for kind in kinds:
        for rule in getattr(perms, kind):
            merged.rules.append(RuleEntry(rule, kind, str(file)))


def _apply_stricter(merged: Settings, raw: RawSettings, file: Path) -> None:
    """An untrusted project file: deny and ask rules, a stricter mode, network off; not the rest."""
    skipped: list[str] = []
    perms = raw.permissions
    if perms:
        _add_rules(merged, perms, file, ("deny", "ask"))
        if perms.allow:
            skipped.append(
                f"permissions.allow ({len(perms.allow)} rule{'s' if len(perms.allow) > 1 else ''})"
            )
        if perms.additionalDirectories:
            skipped.append("permissions.additionalDirectories")
        if perms.defaultMode:
            stricter = stricter_mode(merged.default_mode, perms.defaultMode)
            if stricter == perms.defaultMode:
                merged.default_mode = stricter
            else:
                skipped.append(f"permissions.defaultMode ({perms.defaultMode})")
    for name, key in SETTINGS_KEYS.items():
        if key.who == "anyone" and key.untrusted == "waits" and getattr(raw, name):
            skipped.append(name)
    if raw.sandbox:
        _merge_sandbox(merged, raw.sandbox, file, False)
    if skipped:
        merged.skipped_until_trust.append(SkippedSettings(str(file), skipped))
        merged.problems.append(untrusted_notice(file, skipped))


def _env(env: dict[str, str], file: Path, problems: list[str], project: bool) -> dict[str, str]:
    """What of a file's ``env`` is set for commands (settings_env.py says what is refused)."""
    if not project:
        return env
    refused = sorted(PROJECT_REFUSED.intersection(env))
    if refused:
        problems.append(
            f"{file}: env {', '.join(refused)} ignored: only your own settings set it, as"
            " hooks run outside the sandbox"
        )
    return {name: value for name, value in env.items() if name not in PROJECT_REFUSED}


def _report_ignored(merged: Settings, raw: RawSettings, file: Path, user_file: Path) -> None:
    """Keys a project file may never set, trusted or not."""
    credentials = [name for name in CREDENTIAL_KEYS if getattr(raw, name) is not None]
    if credentials:
        merged.problems.append(credentials_notice(file, credentials, user_file))
    for name, key in SETTINGS_KEYS.items():
        if key.who == "user" and getattr(raw, name) is not None:
            merged.problems.append(f"{file}: {name} ignored: only {user_file} {key.only_user_does}")


def _merge_sandbox(merged: Settings, raw: SandboxSettings, file: Path, user: bool) -> None:
    """A project may only make the sandbox stricter: network off, never unsandboxed,
    no Unix sockets let through."""
    if raw.network is False:
        merged.sandbox_network = False
    if raw.hiddenPaths is not None:
        if user:
            merged.hidden_paths = _hidden_paths(raw.hiddenPaths, file, merged.problems)
        else:
            merged.problems.append(
                f"{file}: sandbox.hiddenPaths is ignored here; only the user settings file"
                " names more paths to hide"
            )
    if raw.allowUnsandboxed is not None:
        if user:
            merged.allow_unsandboxed = raw.allowUnsandboxed
        elif raw.allowUnsandboxed:
            merged.problems.append(
                f"{file}: sandbox.allowUnsandboxed is ignored here; only the user settings"
                " file can turn the sandbox requirement off"
            )

    if raw.allowUnixSockets:
        if user:
            merged.allow_unix_sockets = list(raw.allowUnixSockets)
        else:
            merged.problems.append(
                f"{file}: sandbox.allowUnixSockets is ignored here; only the user settings"
                " file can let commands reach Unix sockets outside the sandbox"
            )


def _hidden_paths(entries: list[str], file: Path, problems: list[str]) -> list[str]:
    """The entries that name a path (absolute, or ``~/...``); one problem line per other."""
    kept = []
    for entry in entries:
        if entry.startswith(("/", "~/")) and "\0" not in entry:
            kept.append(entry)
        else:
            problems.append(
                f"{file}: sandbox.hiddenPaths: {entry!r} is not an absolute or ~/ path; left out"
            )
    return kept
