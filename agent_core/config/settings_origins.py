"""Which file each setting in force came from: what /config shows.

The values are the session's merged ``Settings`` (what is in force); each is traced to
the last file in merge order (settings.py) that holds that same value and applies to
it: the user's files for every key, a trusted project's for the keys anyone may set,
an untrusted project's for its stricter parts only. A value no file holds came from
the command line (``--settings``, ``--add-dir``) or the session (``/add-dir``).
Environment values are not shown: they may hold secrets.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import settings_sources
from agent_core.config.settings_file import load_settings_file
from agent_core.config.settings_model import (
    SETTINGS_KEYS,
    Limits,
    RawSettings,
    RuleEntry,
    Settings,
)
from agent_core.errors import ConfigError

COMMAND_LINE = "command line"
THIS_SESSION = "this session (/add-dir)"
VALUE_CHARS = 100
# Keys /config shows from the rules and directories lists instead (permissions), or
# not at all (trustedProjects: the trust line says it).
_OWN_KEYS = ("permissions", "env", "limits", "sandbox", "trustedProjects")


class SettingOrigin(msgspec.Struct, frozen=True):
    key: str  # dotted: "model", "limits.retries", "permissions.allow"
    value: str
    source: str


class SettingsFileState(msgspec.Struct, frozen=True):
    path: str
    exists: bool
    applies: str  # "user" | "project" | "project, stricter parts only until trusted"


class SettingsSource(msgspec.Struct, frozen=True):
    """One settings file in merge order, read again for tracing (None: absent or unreadable)."""

    path: Path
    user: bool
    raw: RawSettings | None


def shown_value(value: Any) -> str:
    """A value as one line of JSON, cut to ``VALUE_CHARS``."""
    text = json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def read_sources(paths: MewcodePaths, user_home: Path) -> list[SettingsSource]:
    """Every settings file in merge order, read again (one that does not parse: None)."""
    files = []
    for path, user in settings_sources(paths, user_home):
        try:
            raw = load_settings_file(path)
        except ConfigError:
            raw = None  # the settings problems (told at the opening) name it
        files.append(SettingsSource(path, user, raw))
    return files


def file_states(files: Iterable[SettingsSource], trusted: bool) -> list[SettingsFileState]:
    states = []
    for f in files:
        if f.user:
            applies = "user"
        elif trusted:
            applies = "project"
        else:
            applies = "project, stricter parts only until trusted"
        states.append(SettingsFileState(str(f.path), f.path.is_file(), applies))
    return states


def settings_origins(
    settings: Settings,
    files: list[SettingsSource],
    rules: Iterable[RuleEntry],
    session_dirs: Iterable[str] = (),
) -> list[SettingOrigin]:
    """Every setting that is not at its default, with its source (see the module docstring)."""
    trusted = settings.project_trusted
    out: list[SettingOrigin] = []

    def applying(name: str) -> list[SettingsSource]:
        key = SETTINGS_KEYS[name]
        return [
            f for f in files if f.raw is not None and (f.user or (trusted and key.who == "anyone"))
        ]

    def source(candidates: list[SettingsSource], holds: Any) -> str:
        found = [f for f in candidates if holds(f.raw)]
        return str(found[-1].path) if found else COMMAND_LINE

    for name, key in SETTINGS_KEYS.items():
        if name in _OWN_KEYS:
            continue
        value = getattr(settings, name, None)
        default = getattr(Settings(), name, None)
        if key.merge == "update" and isinstance(value, dict):
            for sub, item in value.items():
                src = source(
                    applying(name),
                    lambda r, n=name, s=sub, v=item: (getattr(r, n) or {}).get(s) == v,
                )
                out.append(SettingOrigin(f"{name}.{sub}", shown_value(item), src))
            continue
        if value == default:
            continue
        src = source(applying(name), lambda r, n=name, v=value: getattr(r, n) == v)
        out.append(SettingOrigin(name, shown_value(value), src))

    everyone = [f for f in files if f.raw is not None and (f.user or trusted)]
    stricter = [f for f in files if f.raw is not None]
    if settings.default_mode != "default":
        src = source(
            stricter,
            lambda r: (
                r.permissions is not None and r.permissions.defaultMode == settings.default_mode
            ),
        )
        out.append(SettingOrigin("permissions.defaultMode", settings.default_mode, src))
    for rule in rules:
        out.append(SettingOrigin(f"permissions.{rule.kind}", rule.rule, _rule_source(rule.source)))
    added = set(session_dirs)
    for folder in settings.additional_directories:
        src = source(
            everyone,
            lambda r, d=folder: (
                r.permissions is not None and d in r.permissions.additionalDirectories
            ),
        )
        if src == COMMAND_LINE and folder in added:
            src = THIS_SESSION
        out.append(SettingOrigin("permissions.additionalDirectories", folder, src))
    defaults = msgspec.structs.asdict(Limits())
    for name, value in msgspec.structs.asdict(settings.limits).items():
        if value == defaults.get(name):
            continue
        src = source(everyone, lambda r, n=name, v=value: (r.limits or {}).get(n) == v)
        out.append(SettingOrigin(f"limits.{name}", shown_value(value), src))
    for name, value in settings.env.items():
        src = source(everyone, lambda r, n=name, v=value: (r.env or {}).get(n) == v)
        out.append(SettingOrigin(f"env.{name}", "(set; not shown)", src))
    out += _sandbox(settings, files)
    return out


def _sandbox(settings: Settings, files: list[SettingsSource]) -> list[SettingOrigin]:
    users = [f for f in files if f.raw is not None and f.user and f.raw.sandbox is not None]
    anyone = [f for f in files if f.raw is not None and f.raw.sandbox is not None]

    def last(candidates: list[SettingsSource], holds: Any) -> str:
        found = [f for f in candidates if f.raw is not None and holds(f.raw.sandbox)]
        return str(found[-1].path) if found else COMMAND_LINE

    out = []
    if not settings.sandbox_network:
        src = last(anyone, lambda s: s.network is False)
        out.append(SettingOrigin("sandbox.network", "false", src))
    if settings.allow_unsandboxed:
        src = last(users, lambda s: s.allowUnsandboxed is True)
        out.append(SettingOrigin("sandbox.allowUnsandboxed", "true", src))
    if settings.hidden_paths:
        src = last(users, lambda s: s.hiddenPaths is not None)
        out.append(SettingOrigin("sandbox.hiddenPaths", shown_value(settings.hidden_paths), src))
    if settings.allow_unix_sockets:
        src = last(users, lambda s: bool(s.allowUnixSockets))
        value = shown_value(settings.allow_unix_sockets)
        out.append(SettingOrigin("sandbox.allowUnixSockets", value, src))
    return out


def _rule_source(source: str) -> str:
    if source == "cli":
        return COMMAND_LINE
    if source == "session":
        return "this session (an approval)"
    return source
