"""Editing a settings file: read, change and rewrite atomically, refusing what it cannot parse."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from agent_core.decision import Decision
from agent_core.errors import ConfigError
from agent_core.fsutil import atomic_write_text

# --- editing -----------------------------------------------------------------------------


def read_settings_mapping(file: Path) -> dict[str, Any]:
    """A settings file's top-level mapping ({} when absent), for editing.

    Raises ConfigError rather than returning something that, written back,
    would overwrite what the user has in the file.
    """
    import yaml

    try:
        text = file.read_text(encoding="utf-8")
        loaded = _json_mapping(text, file) if file.suffix == ".json" else yaml.safe_load(text)
    except FileNotFoundError:
        return {}
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "parse error"
        raise ConfigError(f"{file} is not valid YAML ({problem}); it was left unchanged") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{file} is not UTF-8 text; it was left unchanged") from None
    except OSError as exc:
        raise ConfigError(
            f"{file}: cannot read it ({exc.strerror}); it was left unchanged"
        ) from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"{file}: expected a mapping of settings; it was left unchanged")
    return loaded


def _json_mapping(text: str, file: Path) -> Any:
    """A Claude Code settings.json's content, kept as JSON when it is written back."""
    import json

    try:
        return json.loads(text) if text.strip() else None
    except ValueError as exc:
        raise ConfigError(f"{file} is not valid JSON ({exc}); it was left unchanged") from None


def edit_settings(file: Path, change: Callable[[dict[str, Any]], bool]) -> bool:
    """Read, change and atomically rewrite a settings file (a ``.json`` one as JSON);
    False if nothing changed."""
    import yaml

    data = read_settings_mapping(file)
    if not change(data):
        return False
    if file.suffix == ".json":
        import json

        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    atomic_write_text(file, text, private=True)
    return True


def _rule_list(data: dict[str, Any], kind: str, file: Path) -> list[Any]:
    perms = data.setdefault("permissions", {})
    if not isinstance(perms, dict) or not isinstance(perms.setdefault(kind, []), list):
        raise ConfigError(f"{file}: permissions.{kind} is not a list; it was left unchanged")
    return perms[kind]


def append_rule(file: Path, kind: Decision, rule: str) -> None:
    """Add a permission rule to a settings file (atomic rewrite), keeping the rest."""

    def add(data: dict[str, Any]) -> bool:
        rules = _rule_list(data, kind, file)
        if rule in rules:
            return False
        rules.append(rule)
        return True

    edit_settings(file, add)


def remove_rule(file: Path, kind: str, rule: str) -> bool:
    """Delete a permission rule from a settings file; False if it was not there."""

    def drop(data: dict[str, Any]) -> bool:
        rules = _rule_list(data, kind, file)
        if rule not in rules:
            return False
        rules.remove(rule)
        return True

    return file.exists() and edit_settings(file, drop)


def set_value(file: Path, key: str, value: Any) -> None:
    """Set one top-level key in a settings file (used for theme, model...)."""

    def put(data: dict[str, Any]) -> bool:
        data[key] = value
        return True

    edit_settings(file, put)
