"""The settings as data: one file as written, and the merged view the runtime uses."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_type_hints

import msgspec

from agent_core.decision import Decision
from agent_core.errors import ConfigError
from agent_core.modes import MODES as MODES  # re-exported by config.settings
from agent_core.modes import Mode as Mode

RULE_KINDS: tuple[Decision, ...] = ("deny", "ask", "allow")  # the order rules are checked in


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
    attach_file_bytes: int = 100_000  # an @-mentioned file's content sent with the prompt
    attach_prompt_bytes: int = 256_000  # all @-mentioned files of one prompt together
    # MCP: how long a server may take to start and list its tools, and one tool call;
    # how often a crashed server is restarted in a session before it stays failed.
    mcp_startup_timeout_s: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    mcp_tool_timeout_s: Annotated[float, msgspec.Meta(gt=0)] = 600.0
    mcp_restarts: Annotated[int, msgspec.Meta(ge=0)] = 3


class SandboxSettings(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """``sandbox:``: the OS boundary every command runs in (docs/security.md#the-os-sandbox)."""

    network: bool | None = None
    allowUnsandboxed: bool | None = None
    hiddenPaths: list[str] | None = None  # more credentials to hide; the user's file only
    allowUnixSockets: list[str] | None = None  # user settings only; entries checked one by one


class SettingsKey(msgspec.Struct, frozen=True):
    """How one top-level settings key is read, merged and trusted (see ``RawSettings``)."""

    # "set": a later file's value replaces; "update": a mapping merged name by name; "own":
    # a section with its own reader (settings_file.py) and merge (settings.py).
    merge: Literal["set", "update", "own"] = "set"
    # "anyone": any file; "user": the user's own files only, and a project's value is named in
    # a notice ending "only <user file> <only_user_does>"; "credentials": where the API key goes.
    who: Literal["anyone", "user", "credentials"] = "anyone"
    only_user_does: str = ""
    # An untrusted project's value: "waits" for trust (named in the notice); "own": its
    # stricter part applies at once (settings.py's _apply_stricter says which).
    untrusted: Literal["waits", "own"] = "waits"
    claude: bool = False  # read from Claude Code's settings.json files too (claude_keys.py)
    merged_as: tuple[str, ...] = ()  # the merged ``Settings`` fields it feeds; () is its own name


_CREDENTIALS = SettingsKey(who="credentials")


class RawSettings(msgspec.Struct, omit_defaults=True):
    """One settings file as written, less the entries that were invalid.

    Each top-level key is declared here once, with its ``SettingsKey``: the reader, the
    merge, the trust rules and the Claude Code reading all follow from it
    (docs/architecture.md#a-setting).
    """

    provider: Annotated[str | None, SettingsKey()] = None
    model: Annotated[str | None, SettingsKey(claude=True)] = None
    base_url: Annotated[str | None, _CREDENTIALS] = None
    api_key_env: Annotated[str | None, _CREDENTIALS] = None
    theme: Annotated[str | None, SettingsKey()] = None
    # binding id -> keys
    keys: Annotated[
        dict[str, Any] | None, SettingsKey(who="user", only_user_does="remaps keys")
    ] = None
    permissions: Annotated[
        PermissionSettings | None,
        SettingsKey(
            merge="own",
            untrusted="own",
            claude=True,
            merged_as=("rules", "additional_directories", "default_mode"),
        ),
    ] = None
    # for tool commands and hooks, never MewCode's own
    env: Annotated[
        dict[str, str] | None, SettingsKey(merge="own", claude=True, merged_as=("env", "hook_env"))
    ] = None
    hooks: Annotated[dict[str, Any] | None, SettingsKey(merge="update", claude=True)] = None
    lsp: Annotated[dict[str, Any] | None, SettingsKey(merge="update")] = None
    snapshots: Annotated[dict[str, Any] | None, SettingsKey(merge="update")] = None
    preload: Annotated[
        bool | None, SettingsKey(who="user", only_user_does="turns warm start off")
    ] = None
    preload_idle_minutes: Annotated[
        Annotated[float, msgspec.Meta(gt=0)] | None,
        SettingsKey(who="user", only_user_does="sets how long warm start waits idle"),
    ] = None
    limits: Annotated[dict[str, Any] | None, SettingsKey(merge="own")] = None
    sandbox: Annotated[
        SandboxSettings | None,
        SettingsKey(
            merge="own",
            untrusted="own",
            merged_as=(
                "sandbox_network",
                "allow_unsandboxed",
                "hidden_paths",
                "allow_unix_sockets",
            ),
        ),
    ] = None
    trustedProjects: Annotated[
        list[str] | None,
        SettingsKey(
            merge="own",
            who="user",
            only_user_does="records which projects you trust",
            merged_as=("project_trusted",),
        ),
    ] = None
    problems: list[str] = []  # one line per dropped entry: file, line, reason


def _declared_keys() -> dict[str, SettingsKey]:
    hints = get_type_hints(RawSettings, include_extras=True)
    keys = {}
    for name in RawSettings.__struct_fields__:
        found = [a for a in getattr(hints[name], "__metadata__", ()) if isinstance(a, SettingsKey)]
        if found:
            rule = found[0]
            keys[name] = (
                rule if rule.merged_as else msgspec.structs.replace(rule, merged_as=(name,))
            )
    return keys


# Every top-level key of a settings file, in file-model order, with how it is handled.
SETTINGS_KEYS: dict[str, SettingsKey] = _declared_keys()
# Keys whose value is checked as a whole against its type in RawSettings.
PLAIN_KEYS = frozenset(name for name, key in SETTINGS_KEYS.items() if key.merge != "own")
CREDENTIAL_KEYS = tuple(n for n, k in SETTINGS_KEYS.items() if k.who == "credentials")


class RuleEntry(msgspec.Struct, frozen=True):
    """A permission rule with the list and file it came from."""

    rule: str
    kind: Decision
    source: str  # file path, or "session" / "cli"


class SkippedSettings(msgspec.Struct, frozen=True):
    """What an untrusted project file set that waits for trust (for the trust dialog)."""

    file: str
    keys: list[str]


PRELOAD_IDLE_MINUTES = 12 * 60.0


class Settings(msgspec.Struct):
    """The merged view the runtime uses."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None  # user settings only
    api_key_env: str | None = None  # user settings only
    theme: str | None = None
    keys: dict[str, Any] = {}  # user settings only; the UI checks ids and key strings
    preload: bool = True  # user settings only; the `mewcode` client reads the line itself
    # How long the preload server waits for a next run: a working day, so cold runs are
    # rare (user settings only; MEWCODE_PRELOAD_IDLE_MIN overrides it).
    preload_idle_minutes: float = PRELOAD_IDLE_MINUTES
    rules: list[RuleEntry] = []
    additional_directories: list[str] = []
    default_mode: Mode = "default"
    hooks: dict[str, Any] = {}
    lsp: dict[str, Any] = {}
    snapshots: dict[str, Any] = {}
    env: dict[str, str] = {}  # added to tool commands' environment, never ours
    # What of ``env`` reaches hooks, which run outside the sandbox: the user's own files'
    # entries, never a project's (a trusted project's later ``env: {HOME: ...}`` would
    # otherwise choose what the user's own hook scripts run).
    hook_env: dict[str, str] = {}
    limits: Limits = msgspec.field(default_factory=Limits)
    sandbox_network: bool = True  # off when any settings file turns it off
    allow_unsandboxed: bool = False  # read from user settings only
    hidden_paths: list[str] = []  # sandbox.hiddenPaths, from user settings only
    allow_unix_sockets: list[str] = []  # read from user settings only
    project_trusted: bool = False  # the project's own files applied in full
    # Fingerprints of the project programs (hooks, MCP servers) the user trusted; None: all
    # of them, for this run (--trust-project). See config/program_trust.py.
    trusted_programs: frozenset[str] | None = frozenset()
    skipped_until_trust: list[SkippedSettings] = []
    problems: list[str] = []  # one line per invalid entry or ignored key, for the user
