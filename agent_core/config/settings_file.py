"""Reading one settings file, entry by entry: a bad entry is reported and dropped alone."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from agent_core.config import claude_keys
from agent_core.config.rule_syntax import names_missing_tool, rule_problem
from agent_core.config.settings_env import env_entry_problem
from agent_core.config.settings_model import (
    PLAIN_KEYS,
    RULE_KINDS,
    Limits,
    PermissionSettings,
    PermissionsUnreadable,
    RawSettings,
    SandboxSettings,
)
from agent_core.config.trust import (
    TRUSTED_PROJECTS,
    stricter_mode,
)
from agent_core.errors import ConfigError
from agent_core.modes import MODES, mode_named

# --- reading one file ------------------------------------------------------------------

_STOPS = "mewcode stops rather than run without this file's permission rules"
_UNKNOWN_INTENT = "mewcode stops rather than guess what it was meant to stop"
_PERMISSION_KEYS = ", ".join(PermissionSettings.__struct_fields__)
_MENTIONS_PERMISSIONS = re.compile(rb"(?i)" + rb"\x00{0,3}".join(bytes([c]) for c in b"permission"))
_ESCAPE = re.compile(rb"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2}))")


def _unescaped(match: re.Match[bytes]) -> bytes:
    code = int(next(g for g in match.groups() if g is not None), 16)
    return chr(code).encode("utf-8", "replace") if code < 0x110000 else b"?"


def _mentions_permissions(data: bytes) -> bool:
    """Whether the bytes might hold a permissions section: UTF-16 and UTF-32 spellings, and
    JSON or YAML escapes in a key (``"\\u0070ermissions"``) included."""
    return _MENTIONS_PERMISSIONS.search(_ESCAPE.sub(_unescaped, data)) is not None


def _whole_file_problem(path: Path, line: int | str, reason: str, data: bytes) -> ConfigError:
    """A file that cannot be read at all: fatal when it may hold permission rules."""
    if _mentions_permissions(data):
        return PermissionsUnreadable(f"{path} line {line}: {reason}; {_STOPS}")
    return ConfigError(f"{path} line {line}: {reason}; the file is ignored")


def _read_text(path: Path) -> str | None:
    """The file as text; None when absent. Raises ConfigError naming the file and line."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(path):  # its rules are somewhere that is not there now
            raise PermissionsUnreadable(
                f"{path}: a symlink to a missing file ({os.readlink(path)}); {_STOPS}"
            ) from None
        return None
    except OSError as exc:
        # Its rules cannot be known, so it is treated as one that holds some.
        raise PermissionsUnreadable(f"{path}: cannot read it ({exc.strerror}); {_STOPS}") from None
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise _whole_file_problem(path, line, "not a text file (a NUL byte)", data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        reason = f"not UTF-8 text (byte 0x{data[exc.start]:02x})"
        raise _whole_file_problem(path, line, reason, data) from None


def _loader() -> Any:
    # PyYAML costs ~10 ms, and the first frame needs it only when a settings file
    # exists. libyaml's loader when present, for the same reason.
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _validation_reason(exc: msgspec.ValidationError) -> str:
    text = str(exc).split(" - at `", 1)[0].replace(" | null", "").replace("`", "")
    text = re.sub(r"\bobject\b", "mapping", re.sub(r"\barray\b", "list", text))
    return text[:1].lower() + text[1:]


def _described(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _looks_like_permissions(key: str) -> bool:
    import difflib  # only for an unknown key

    return bool(difflib.get_close_matches(key.lower(), ["permissions"], n=1, cutoff=0.8))


def _socket_path_problem(text: str) -> str | None:
    """Why a sandbox.allowUnixSockets entry is unusable, or None (absolute or ``~/``)."""
    if "\x00" in text:
        return f"{_described(text)} holds a NUL byte"
    if not (os.path.isabs(text) or text.startswith("~/")):
        return f"{_described(text)} is not an absolute path or ~/..."
    return None


# Lists under a section whose items are checked one by one: a bad item is dropped alone.
_CHECKED_LISTS: dict[str, Callable[[str], str | None]] = {
    "sandbox.allowUnixSockets": _socket_path_problem,
}


def _joined(what: str, reason: str) -> str:
    return f"{what}: {reason}" if reason else what


class _Unbuildable(Exception):
    """A YAML node whose value cannot be built (bad tag, impossible date...)."""


class _FileReader:
    """Reads one settings file's nodes entry by entry, collecting what it drops.

    ``drop`` records a problem and skips the entry; ``stop`` is for what the
    permission rules cannot do without, and the caller raises it.
    """

    def __init__(self, path: Path, *, claude: bool = False) -> None:
        from yaml.constructor import SafeConstructor

        self.path = path
        self.claude = claude  # a Claude Code settings.json: its keys, not ours
        self.problems: list[str] = []
        self.unused: list[str] = []  # a Claude Code file's keys MewCode does not use
        self._constructor = SafeConstructor()

    # -- helpers --

    def line(self, node: Any) -> int | str:
        mark = node.start_mark
        return f"{mark.line + 1}:{mark.column + 1}" if self.claude else mark.line + 1

    @staticmethod
    def name(node: Any) -> str:
        value = getattr(node, "value", None)
        return value if isinstance(value, str) else "?"

    @staticmethod
    def is_null(node: Any) -> bool:
        return node.tag == "tag:yaml.org,2002:null"

    def drop(self, node: Any, what: str, reason: str) -> None:
        self.problems.append(
            f"{self.path} line {self.line(node)}: {_joined(what, reason)}; ignored"
        )

    def stop(
        self, node: Any, what: str, reason: str, consequence: str = _STOPS
    ) -> PermissionsUnreadable:
        return PermissionsUnreadable(
            f"{self.path} line {self.line(node)}: {_joined(what, reason)}; {consequence}"
        )

    def value(self, node: Any) -> Any:
        """The Python value of a node; raises _Unbuildable with the reason."""
        import yaml

        try:
            return self._constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
            reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise _Unbuildable(reason) from None

    def mapping(self, node: Any) -> list[tuple[Any, Any]] | None:
        """The (key, value) node pairs of a mapping node, merge keys resolved; else None."""
        import yaml

        if not isinstance(node, yaml.MappingNode):
            return None
        try:
            self._constructor.flatten_mapping(node)
        except yaml.YAMLError as exc:
            raise _Unbuildable(getattr(exc, "problem", None) or "bad merge key") from None
        return node.value

    # -- the file --

    def read(self, root: Any, data: bytes) -> RawSettings:
        raw = RawSettings()
        seen: dict[str, int | str] = {}
        try:
            pairs = self.mapping(root) or []
        except _Unbuildable as exc:
            raise _whole_file_problem(
                self.path, self.line(root), str(exc), b"permissions"
            ) from None
        for key_node, node in pairs:
            key = self.name(key_node)
            if key in seen and key != "permissions":  # permissions sections are combined
                self.problems.append(
                    f"{self.path} line {self.line(key_node)}: {key} is set again (first on line "
                    f"{seen[key]}); the last one counts"
                )
            seen.setdefault(key, self.line(key_node))
            try:
                self.read_entry(raw, key, key_node, node)
            except _Unbuildable as exc:
                if key == "permissions":
                    raise self.stop(node, key, str(exc)) from None
                self.drop(node, key, str(exc))
        if self.unused:
            self.problems.append(claude_keys.unused_notice(self.path, self.unused))
        raw.problems = self.problems
        return raw

    def read_entry(self, raw: RawSettings, key: str, key_node: Any, node: Any) -> None:
        if key == "permissions":
            self.read_permissions(raw, node)
        elif key == "env":
            raw.env = {**(raw.env or {}), **self.read_env(node)}
        elif self.claude and key not in claude_keys.USED and not _looks_like_permissions(key):
            if key not in self.unused and key not in claude_keys.QUIET:
                self.unused.append(key)
        elif key == "limits":
            raw.limits = {**(raw.limits or {}), **self.read_fields(node, key, Limits)}
        elif key == "sandbox":
            previous = msgspec.to_builtins(raw.sandbox) if raw.sandbox else {}
            found = self.read_fields(node, key, SandboxSettings)
            raw.sandbox = msgspec.convert({**previous, **found}, SandboxSettings)
        elif key == TRUSTED_PROJECTS:
            raw.trustedProjects = self.read_strings(node, key)
        elif key in PLAIN_KEYS:
            value = self.value(node)
            try:
                msgspec.convert({key: value}, RawSettings)
            except msgspec.ValidationError as exc:
                self.drop(node, key, f"{_validation_reason(exc)} ({_described(value)})")
                return
            setattr(raw, key, value)
        elif _looks_like_permissions(key):
            # A misspelt permissions section would silently lose its deny rules.
            raise self.stop(key_node, key, "unknown setting (did you mean permissions?)")
        else:
            self.drop(key_node, key, "unknown setting")

    def read_fields(self, node: Any, key: str, schema: type) -> dict[str, Any]:
        """A mapping whose keys are checked one by one against ``schema``'s fields."""
        if self.is_null(node):
            return {}
        pairs = self.mapping(node)
        if pairs is None:
            self.drop(node, key, "expected a mapping")
            return {}
        known = schema.__struct_fields__  # type: ignore[attr-defined]
        found: dict[str, Any] = {}
        for sub_key, sub_node in pairs:
            name = self.name(sub_key)
            if name not in known:
                self.drop(sub_key, f"{key}.{name}", f"unknown setting (known: {', '.join(known)})")
                continue
            where = f"{key}.{name}"
            if where in _CHECKED_LISTS:
                found[name] = self.read_strings(sub_node, where, _CHECKED_LISTS[where])
                continue
            try:
                value = self.value(sub_node)
                msgspec.convert({name: value}, schema)
            except _Unbuildable as exc:
                self.drop(sub_node, f"{key}.{name}", str(exc))
                continue
            except msgspec.ValidationError as exc:
                reason = f"{_validation_reason(exc)} ({_described(value)})"
                self.drop(sub_node, f"{key}.{name}", reason)
                continue
            found[name] = value
        return found

    def read_env(self, node: Any) -> dict[str, str]:
        """``env``: a mapping of variable names to text; a bad or refused entry alone is dropped."""
        if self.is_null(node):
            return {}
        pairs = self.mapping(node)
        if pairs is None:
            self.drop(node, "env", "expected a mapping of variable names to text")
            return {}
        found: dict[str, str] = {}
        for key_node, value_node in pairs:
            try:
                name, value = self.value(key_node), self.value(value_node)
            except _Unbuildable as exc:
                self.drop(value_node, "env", str(exc))
                continue
            if problem := env_entry_problem(str(name), value):
                self.drop(key_node, "env", problem)
            else:
                found[str(name)] = value
        return found

    def read_strings(
        self, node: Any, what: str, check: Callable[[str], str | None] | None = None
    ) -> list[str]:
        """A list of strings (each passing ``check``, which names a problem); a bad item
        is dropped alone, a non-list drops the entry."""
        import yaml

        if self.is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.drop(node, what, "expected a list")
            return []
        found: list[str] = []
        for item in node.value:
            try:
                value = self.value(item)
            except _Unbuildable as exc:
                self.drop(item, what, str(exc))
                continue
            if not isinstance(value, str):
                self.drop(item, what, f"expected text, got {_described(value)}")
            elif check is not None and (problem := check(value)):
                self.drop(item, what, problem)
            else:
                found.append(value)
        return found

    # -- permissions: what cannot be read stops mewcode --

    def read_permissions(self, raw: RawSettings, node: Any) -> None:
        perms = raw.permissions or PermissionSettings()
        raw.permissions = perms
        if self.is_null(node):
            return
        pairs = self.mapping(node)
        if pairs is None:
            raise self.stop(node, "permissions", f"expected a mapping of {_PERMISSION_KEYS}")
        for key_node, sub in pairs:
            name = self.name(key_node)
            where = f"permissions.{name}"
            if name in RULE_KINDS:
                getattr(perms, name).extend(self.read_rules(sub, name))
            elif name == "additionalDirectories":
                perms.additionalDirectories.extend(self.read_strings(sub, where))
            elif name == "defaultMode":
                value = self.value(sub)
                if value is None:
                    continue
                mode = mode_named(value)
                if mode is None:
                    modes = ", ".join(MODES)
                    note = claude_keys.MODE_NOTES.get(value) if isinstance(value, str) else None
                    reason = f"{_described(value)} is not a mode ({modes})"
                    raise self.stop(sub, where, f"{reason}: {note}" if note else reason)
                # Set twice in one file: the stricter counts.
                old = perms.defaultMode
                perms.defaultMode = stricter_mode(old, mode) if old else mode
            elif self.claude and name in claude_keys.KNOWN_PERMISSION_KEYS:
                self.unused.append(where)
            else:
                raise self.stop(key_node, where, f"unknown key (known: {_PERMISSION_KEYS})")

    def read_rules(self, node: Any, kind: str) -> list[str]:
        """Valid rules of one list. A bad deny or ask rule stops; a bad allow rule is dropped."""
        import yaml

        where = f"permissions.{kind}"
        if self.is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            if kind != "allow":
                raise self.stop(node, where, "expected a list of rules")
            self.drop(node, where, "expected a list of rules")
            return []
        rules: list[str] = []
        for item in node.value:
            try:
                value = self.value(item)
            except _Unbuildable as exc:
                value = f"<{exc}>"
            problem: str | None
            missing_tool = False
            if not isinstance(value, str):
                problem = f"{_described(value)}: not a rule (expected Tool or Tool(specifier))"
            else:
                problem = rule_problem(value)
                missing_tool = names_missing_tool(value)
            if problem is None:
                rules.append(value)
            elif kind != "allow" and not missing_tool:
                raise self.stop(item, f"{kind} rule {problem}", "", _UNKNOWN_INTENT)
            else:
                self.drop(item, f"{kind} rule {problem}", "")
        return rules


def load_settings_file(path: Path) -> RawSettings | None:
    """Read one settings file, dropping invalid entries (listed in ``problems``); None when absent.

    A ``.json`` file is one of Claude Code's (claude_keys.py says what of it is used).
    Raises ConfigError naming the file and line when none of it can be read, and
    PermissionsUnreadable when what cannot be read may hold permission rules.
    """
    text = _read_text(path)
    if text is None:
        return None
    if path.suffix == ".json":
        return read_claude_settings(text, path)
    import yaml

    data = text.encode("utf-8", "replace")
    try:
        root = yaml.compose(text, Loader=_loader())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        started = getattr(exc, "context_mark", None)
        if started is not None and mark is not None and started.line != mark.line:
            context = getattr(exc, "context", None) or "in what starts"
            problem += f" ({context} from line {started.line + 1})"
        raise _whole_file_problem(
            path, mark.line + 1 if mark else 1, f"invalid YAML: {problem}", data
        ) from None
    if root is None:
        return RawSettings()
    if not isinstance(root, yaml.MappingNode):
        raise _whole_file_problem(
            path, root.start_mark.line + 1, "expected a mapping of settings", data
        )
    return _FileReader(path).read(root, data)


def read_claude_settings(text: str, path: Path) -> RawSettings:
    """A Claude Code settings.json's text (``path`` names it in messages), read as JSON."""
    from agent_core.config.json_nodes import JsonSyntaxError, compose_json

    data = text.encode("utf-8", "replace")
    try:
        root = compose_json(text)
    except JsonSyntaxError as exc:
        where = f"{exc.line}:{exc.column}"
        raise _whole_file_problem(path, where, f"invalid JSON: {exc.reason}", data) from None
    import yaml

    if not isinstance(root, yaml.MappingNode):
        raise _whole_file_problem(path, "1:1", "expected a JSON object of settings", data)
    return _FileReader(path, claude=True).read(root, data)
