"""Settings: YAML files merged user -> project -> local, validated with msgspec.

An invalid file is reported (file, line, reason) and skipped; the other
layers still apply, so the app always starts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.errors import ConfigError
from agent_core.fsutil import atomic_write_text

Mode = Literal["default", "acceptEdits", "plan", "bypassPermissions"]
MODES: tuple[str, ...] = ("default", "acceptEdits", "plan", "bypassPermissions")


class PermissionSettings(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    allow: list[str] = []
    deny: list[str] = []
    ask: list[str] = []
    additionalDirectories: list[str] = []
    defaultMode: Mode | None = None


class Limits(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    max_iterations: int = 25
    hallucination_rounds: int = 3
    max_concurrency: int = 4
    max_output_tokens: int = 8192
    spill_bytes: int = 50_000
    bash_output_chars: int = 30_000
    bash_timeout_ms: int = 120_000
    bash_max_timeout_ms: int = 600_000
    compaction_safety_margin: int = 13_000
    compaction_budget_ratio: float = 0.8
    history_cap_messages: int = 100
    retries: int = 4


class SandboxSettings(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """``sandbox:``: the OS boundary every command runs in (SPEC §6)."""

    network: bool | None = None
    allowUnsandboxed: bool | None = None


class RawSettings(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=False):
    """One settings file as written (every field optional)."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    theme: str | None = None
    permissions: PermissionSettings | None = None
    hooks: dict[str, Any] | None = None
    lsp: dict[str, Any] | None = None
    snapshots: dict[str, Any] | None = None
    limits: dict[str, Any] | None = None
    sandbox: SandboxSettings | None = None


class RuleEntry(msgspec.Struct, frozen=True):
    """A permission rule with the list and file it came from."""

    rule: str
    kind: Literal["allow", "deny", "ask"]
    source: str  # file path, or "session" / "cli"


class Settings(msgspec.Struct):
    """The merged view the runtime uses."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    theme: str | None = None
    rules: list[RuleEntry] = []
    additional_directories: list[str] = []
    default_mode: str = "default"
    hooks: dict[str, Any] = {}
    lsp: dict[str, Any] = {}
    snapshots: dict[str, Any] = {}
    limits: Limits = msgspec.field(default_factory=Limits)
    sandbox_network: bool = True  # off when any settings file turns it off
    allow_unsandboxed: bool = False  # read from user settings only
    problems: list[str] = []  # one line per invalid file, for the user


def _yaml_line(text: str, path: list[str | int]) -> int | None:
    """1-based line of the node at ``path`` in a YAML document, if found."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    for key in path:
        if isinstance(node, yaml.MappingNode):
            match = [v for k, v in node.value if getattr(k, "value", None) == key]
            if not match:
                break
            node = match[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
            if key >= len(node.value):
                break
            node = node.value[key]
        else:
            break
    return node.start_mark.line + 1 if node is not None else None


def _path_from_error(message: str) -> list[str | int]:
    m = re.search(r"at `\$(.*)`", message)
    if not m:
        return []
    parts: list[str | int] = []
    for name, idx in re.findall(r"\.([^.\[]+)|\[(\d+)\]", m.group(1)):
        parts.append(int(idx) if idx else name)
    return parts


def load_settings_file(path: Path) -> RawSettings | None:
    """Parse one settings file; None when absent. Raises ConfigError naming file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    # Imported here: PyYAML costs ~10 ms, and the first frame needs it only when a
    # settings file exists. libyaml's loader when present, for the same reason.
    import yaml

    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{path}{where}: invalid YAML: {problem}") from None
    if data is None:
        return RawSettings()
    if not isinstance(data, dict):
        raise ConfigError(f"{path} line 1: expected a mapping of settings")
    try:
        raw = msgspec.convert(data, RawSettings)
        if raw.limits:
            msgspec.convert(raw.limits, Limits)
        return raw
    except msgspec.ValidationError as exc:
        msg = str(exc)
        key_path = _path_from_error(msg)
        if not key_path and "limits" in data:  # Limits is checked on its own, without a path
            key_path = ["limits"]
        line = _yaml_line(text, key_path)
        where = f" line {line}" if line else ""
        raise ConfigError(f"{path}{where}: {msg}") from None


def load_settings(paths: MewcodePaths) -> Settings:
    """Merge user -> project -> local settings; invalid files land in ``problems``."""
    merged = Settings()
    limits: dict[str, Any] = {}
    for file in (paths.user_settings, paths.project_settings, paths.local_settings):
        try:
            raw = load_settings_file(file)
        except ConfigError as exc:
            merged.problems.append(str(exc))
            continue
        if raw is None:
            continue
        for name in ("provider", "model", "base_url", "api_key_env", "theme"):
            value = getattr(raw, name)
            if value is not None:
                setattr(merged, name, value)
        if raw.permissions:
            perms = raw.permissions
            for kind in ("deny", "ask", "allow"):
                for rule in getattr(perms, kind):
                    merged.rules.append(RuleEntry(rule, kind, str(file)))
            merged.additional_directories.extend(perms.additionalDirectories)
            if perms.defaultMode:
                merged.default_mode = perms.defaultMode
        for name in ("hooks", "lsp", "snapshots"):
            value = getattr(raw, name)
            if value:
                getattr(merged, name).update(value)
        if raw.limits:
            limits.update(raw.limits)
        if raw.sandbox:
            _merge_sandbox(merged, raw.sandbox, file, file == paths.user_settings)
    merged.limits = msgspec.convert(limits, Limits) if limits else Limits()
    return merged


def _merge_sandbox(merged: Settings, raw: SandboxSettings, file: Path, user: bool) -> None:
    """A project may only make the sandbox stricter: network off, never unsandboxed."""
    if raw.network is False:
        merged.sandbox_network = False
    if raw.allowUnsandboxed is not None:
        if user:
            merged.allow_unsandboxed = raw.allowUnsandboxed
        elif raw.allowUnsandboxed:
            merged.problems.append(
                f"{file}: sandbox.allowUnsandboxed is ignored here; only the user settings"
                " file can turn the sandbox requirement off"
            )


def read_settings_mapping(file: Path) -> dict[str, Any]:
    """A settings file's top-level mapping ({} when absent), for editing.

    Raises ConfigError rather than returning something that, written back,
    would overwrite what the user has in the file.
    """
    import yaml

    try:
        loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "parse error"
        raise ConfigError(f"{file} is not valid YAML ({problem}); it was left unchanged") from None
    except OSError as exc:
        raise ConfigError(
            f"{file}: cannot read it ({exc.strerror}); it was left unchanged"
        ) from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"{file}: expected a mapping of settings; it was left unchanged")
    return loaded


def _edit_settings(file: Path, change: Callable[[dict[str, Any]], bool]) -> bool:
    """Read, change and atomically rewrite a settings file; False if nothing changed."""
    import yaml

    data = read_settings_mapping(file)
    if not change(data):
        return False
    atomic_write_text(file, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return True


def _rule_list(data: dict[str, Any], kind: str, file: Path) -> list[Any]:
    perms = data.setdefault("permissions", {})
    if not isinstance(perms, dict) or not isinstance(perms.setdefault(kind, []), list):
        raise ConfigError(f"{file}: permissions.{kind} is not a list; it was left unchanged")
    return perms[kind]


def append_rule(file: Path, kind: Literal["allow", "deny", "ask"], rule: str) -> None:
    """Add a permission rule to a settings file (atomic rewrite), keeping the rest."""

    def add(data: dict[str, Any]) -> bool:
        rules = _rule_list(data, kind, file)
        if rule in rules:
            return False
        rules.append(rule)
        return True

    _edit_settings(file, add)


def remove_rule(file: Path, kind: str, rule: str) -> bool:
    """Delete a permission rule from a settings file; False if it was not there."""

    def drop(data: dict[str, Any]) -> bool:
        rules = _rule_list(data, kind, file)
        if rule not in rules:
            return False
        rules.remove(rule)
        return True

    return file.exists() and _edit_settings(file, drop)


def set_value(file: Path, key: str, value: Any) -> None:
    """Set one top-level key in a settings file (used for theme, model...)."""

    def put(data: dict[str, Any]) -> bool:
        data[key] = value
        return True

    _edit_settings(file, put)
