"""Settings: YAML files merged user -> project -> local, validated entry by entry.

Every top-level key, limit, sandbox key and permission rule is checked on its
own: an invalid one is reported (file, line, reason) and dropped alone, and
the rest of the file applies. What cannot be dropped without loosening
something (a permissions section that cannot be read, a malformed deny or ask
rule, an unknown mode) raises ``PermissionsUnreadable``: mewcode stops rather
than run without the deny rules.

Project and local files come from the repository checkout: until the project
is trusted they only make things stricter (see trust.py), and where
credentials go (``base_url``, ``api_key_env``) is read from the user's file only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import msgspec

from agent_core.config.paths import MewcodePaths
from agent_core.config.rule_syntax import rule_problem
from agent_core.config.trust import (
    TRUSTED_PROJECTS,
    credentials_notice,
    is_trusted,
    stricter_mode,
    untrusted_notice,
)
from agent_core.errors import ConfigError
from agent_core.fsutil import atomic_write_text

Mode = Literal["default", "acceptEdits", "plan", "bypassPermissions"]
MODES: tuple[str, ...] = ("default", "acceptEdits", "plan", "bypassPermissions")
RULE_KINDS = ("deny", "ask", "allow")
CREDENTIAL_KEYS = ("base_url", "api_key_env")  # where the key goes: user settings only


class PermissionsUnreadable(ConfigError):
    """A file's permission rules cannot be read exactly: mewcode must not run without them."""


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


class _PlainValues(msgspec.Struct, forbid_unknown_fields=True):
    """The types of the top-level keys checked as a whole (one entry each)."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    theme: str | None = None
    hooks: dict[str, Any] | None = None
    lsp: dict[str, Any] | None = None
    snapshots: dict[str, Any] | None = None


class RawSettings(msgspec.Struct, omit_defaults=True):
    """One settings file as written, less the entries that were invalid."""

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
    trustedProjects: list[str] | None = None  # honoured in the user's file only
    problems: list[str] = []  # one line per dropped entry: file, line, reason


class RuleEntry(msgspec.Struct, frozen=True):
    """A permission rule with the list and file it came from."""

    rule: str
    kind: Literal["allow", "deny", "ask"]
    source: str  # file path, or "session" / "cli"


class SkippedSettings(msgspec.Struct, frozen=True):
    """What an untrusted project file set that waits for trust (for the trust dialog)."""

    file: str
    keys: list[str]


class Settings(msgspec.Struct):
    """The merged view the runtime uses."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None  # user settings only
    api_key_env: str | None = None  # user settings only
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
    project_trusted: bool = False  # the project's own files applied in full
    skipped_until_trust: list[SkippedSettings] = []
    problems: list[str] = []  # one line per invalid entry or ignored key, for the user


# --- reading one file ------------------------------------------------------------------

_STOPS = "mewcode stops rather than run without this file's permission rules"
_UNKNOWN_INTENT = "mewcode stops rather than guess what it was meant to stop"
_PERMISSION_KEYS = ", ".join(PermissionSettings.__struct_fields__)
_MENTIONS_PERMISSIONS = re.compile(rb"(?i)p\x00?e\x00?r\x00?m\x00?i\x00?s\x00?s\x00?i\x00?o\x00?n")


def _mentions_permissions(data: bytes) -> bool:
    """Whether the bytes might hold a permissions section (UTF-16 spellings included)."""
    return _MENTIONS_PERMISSIONS.search(data) is not None


def _whole_file_problem(path: Path, line: int, reason: str, data: bytes) -> ConfigError:
    """A file that cannot be read at all: fatal when it may hold permission rules."""
    if _mentions_permissions(data):
        return PermissionsUnreadable(f"{path} line {line}: {reason}; {_STOPS}")
    return ConfigError(f"{path} line {line}: {reason}; the file is ignored")


def _read_text(path: Path) -> str | None:
    """The file as text; None when absent. Raises ConfigError naming the file and line."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
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


def _joined(what: str, reason: str) -> str:
    return f"{what}: {reason}" if reason else what


class _Unbuildable(Exception):
    """A YAML node whose value cannot be built (bad tag, impossible date...)."""


class _FileReader:
    """Reads one settings file's nodes entry by entry, collecting what it drops.

    ``drop`` records a problem and skips the entry; ``stop`` is for what the
    permission rules cannot do without, and the caller raises it.
    """

    def __init__(self, path: Path) -> None:
        from yaml.constructor import SafeConstructor

        self.path = path
        self.problems: list[str] = []
        self._constructor = SafeConstructor()

    # -- helpers --

    @staticmethod
    def line(node: Any) -> int:
        return node.start_mark.line + 1

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
        seen: dict[str, int] = {}
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
        raw.problems = self.problems
        return raw

    def read_entry(self, raw: RawSettings, key: str, key_node: Any, node: Any) -> None:
        if key == "permissions":
            self.read_permissions(raw, node)
        elif key == "limits":
            raw.limits = {**(raw.limits or {}), **self.read_fields(node, key, Limits)}
        elif key == "sandbox":
            previous = msgspec.to_builtins(raw.sandbox) if raw.sandbox else {}
            found = self.read_fields(node, key, SandboxSettings)
            raw.sandbox = msgspec.convert({**previous, **found}, SandboxSettings)
        elif key == TRUSTED_PROJECTS:
            raw.trustedProjects = self.read_strings(node, key)
        elif key in _PlainValues.__struct_fields__:
            value = self.value(node)
            try:
                msgspec.convert({key: value}, _PlainValues)
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

    def read_strings(self, node: Any, what: str) -> list[str]:
        """A list of strings; a bad item is dropped alone, a non-list drops the entry."""
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
            if isinstance(value, str):
                found.append(value)
            else:
                self.drop(item, what, f"expected text, got {_described(value)}")
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
                mode = self.value(sub)
                if mode is None:
                    continue
                if mode not in MODES:
                    modes = ", ".join(MODES)
                    raise self.stop(sub, where, f"{_described(mode)} is not a mode ({modes})")
                # Set twice in one file: the stricter counts.
                old = perms.defaultMode
                perms.defaultMode = stricter_mode(old, mode) if old else mode  # type: ignore
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
            if not isinstance(value, str):
                problem = f"{_described(value)}: not a rule (expected Tool or Tool(specifier))"
            else:
                problem = rule_problem(value)
            if problem is None:
                rules.append(value)
            elif kind != "allow":
                raise self.stop(item, f"{kind} rule {problem}", "", _UNKNOWN_INTENT)
            else:
                self.drop(item, f"allow rule {problem}", "")
        return rules


def load_settings_file(path: Path) -> RawSettings | None:
    """Read one settings file, dropping invalid entries (listed in ``problems``); None when absent.

    Raises ConfigError naming the file and line when none of it can be read, and
    PermissionsUnreadable when what cannot be read may hold permission rules.
    """
    text = _read_text(path)
    if text is None:
        return None
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


# --- merging the files -------------------------------------------------------------------


def load_settings(paths: MewcodePaths, *, trust_project: bool = False) -> Settings:
    """Merge user -> project -> local settings.

    The project's files apply in full only when the project is trusted (listed in
    the user's ``trustedProjects``, or ``trust_project`` for this run); before that
    they only make things stricter, and what they skipped is reported. Invalid
    entries land in ``problems``; PermissionsUnreadable propagates.
    """
    merged = Settings()
    limits: dict[str, Any] = {}
    user = _load(paths.user_settings, merged)
    trusted_list = (user.trustedProjects or []) if user else []
    merged.project_trusted = trust_project or is_trusted(paths.project, trusted_list)
    if user is not None:
        _apply(merged, user, paths.user_settings, limits)
    for file in (paths.project_settings, paths.local_settings):
        if _same_file(file, paths.user_settings):
            continue  # the project is MEWCODE_HOME's parent: already read as the user's file
        raw = _load(file, merged)
        if raw is None:
            continue
        _report_ignored(merged, raw, file, paths.user_settings)
        if merged.project_trusted:
            _apply(merged, raw, file, limits, project=True)
        else:
            _apply_stricter(merged, raw, file)
    merged.limits = msgspec.convert(limits, Limits) if limits else Limits()
    return merged


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


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _apply(
    merged: Settings, raw: RawSettings, file: Path, limits: dict[str, Any], *, project: bool = False
) -> None:
    """Everything the file sets (credentials' destination only from the user's file)."""
    for name in ("provider", "model", "theme", *(() if project else CREDENTIAL_KEYS)):
        value = getattr(raw, name)
        if value is not None:
            setattr(merged, name, value)
    if raw.permissions:
        perms = raw.permissions
        _add_rules(merged, perms, file, RULE_KINDS)
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
        _merge_sandbox(merged, raw.sandbox, file, not project)


def _add_rules(
    merged: Settings, perms: PermissionSettings, file: Path, kinds: tuple[str, ...]
) -> None:
    for kind in kinds:
        for rule in getattr(perms, kind):
            merged.rules.append(RuleEntry(rule, kind, str(file)))  # type: ignore[arg-type]


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
    for name in ("provider", "model", "theme", "hooks", "lsp", "snapshots", "limits"):
        if getattr(raw, name):
            skipped.append(name)
    if raw.sandbox:
        _merge_sandbox(merged, raw.sandbox, file, False)
    if skipped:
        merged.skipped_until_trust.append(SkippedSettings(str(file), skipped))
        merged.problems.append(untrusted_notice(file, skipped))


def _report_ignored(merged: Settings, raw: RawSettings, file: Path, user_file: Path) -> None:
    """Keys a project file may never set, trusted or not."""
    credentials = [name for name in CREDENTIAL_KEYS if getattr(raw, name) is not None]
    if credentials:
        merged.problems.append(credentials_notice(file, credentials, user_file))
    if raw.trustedProjects is not None:
        merged.problems.append(
            f"{file}: {TRUSTED_PROJECTS} ignored: only {user_file} records which projects you trust"
        )


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


# --- editing -----------------------------------------------------------------------------


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


def edit_settings(file: Path, change: Callable[[dict[str, Any]], bool]) -> bool:
    """Read, change and atomically rewrite a settings file; False if nothing changed."""
    import yaml

    data = read_settings_mapping(file)
    if not change(data):
        return False
    atomic_write_text(file, yaml.safe_dump(data, sort_keys=False, allow_unicode=True), private=True)
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
