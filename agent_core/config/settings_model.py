"""The settings as data: one file as written, and the merged view the runtime uses."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from agent_core.decision import Decision
from agent_core.errors import ConfigError
from agent_core.modes import MODES as MODES  # re-exported by config.settings
from agent_core.modes import Mode as Mode

RULE_KINDS: tuple[Decision, ...] = ("deny", "ask", "allow")  # the order rules are checked in
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


class _PlainValues(msgspec.Struct, forbid_unknown_fields=True):
    """The types of the top-level keys checked as a whole (one entry each)."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    theme: str | None = None
    keys: dict[str, Any] | None = None
    hooks: dict[str, Any] | None = None
    lsp: dict[str, Any] | None = None
    snapshots: dict[str, Any] | None = None
    preload: bool | None = None


class RawSettings(msgspec.Struct, omit_defaults=True):
    """One settings file as written, less the entries that were invalid."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    theme: str | None = None
    keys: dict[str, Any] | None = None  # binding id -> keys; honoured in the user's file only
    permissions: PermissionSettings | None = None
    hooks: dict[str, Any] | None = None
    lsp: dict[str, Any] | None = None
    snapshots: dict[str, Any] | None = None
    preload: bool | None = None  # honoured in the user's file only
    limits: dict[str, Any] | None = None
    sandbox: SandboxSettings | None = None
    env: dict[str, str] | None = None  # for tool commands and hooks, never MewCode's own
    trustedProjects: list[str] | None = None  # honoured in the user's file only
    problems: list[str] = []  # one line per dropped entry: file, line, reason


class RuleEntry(msgspec.Struct, frozen=True):
    """A permission rule with the list and file it came from."""

    rule: str
    kind: Decision
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
    keys: dict[str, Any] = {}  # user settings only; the UI checks ids and key strings
    preload: bool = True  # user settings only; the `mewcode` client reads the line itself
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
