"""The data that crosses the MCP seams: server specs, their status, a listed tool."""

from __future__ import annotations

import hashlib
from typing import Any, Literal

import msgspec

TransportKind = Literal["stdio", "http"]
ConfigScope = Literal["user", "project"]
# pending: configured, not started yet (or started on first use); connecting; connected;
# failed: would not start, crashed or timed out (error says why); needs-trust: a project
# server in a project the user has not trusted, never started; closed: after shutdown.
ServerState = Literal["pending", "connecting", "connected", "failed", "needs-trust", "closed"]


class McpServerSpec(msgspec.Struct, frozen=True, omit_defaults=True):
    """One configured server, variables already expanded."""

    name: str
    transport: TransportKind
    source: str  # the file it came from
    scope: ConfigScope
    command: str = ""  # stdio
    args: tuple[str, ...] = ()
    env: dict[str, str] = {}
    cwd: str | None = None
    url: str = ""  # http
    headers: dict[str, str] = {}
    shown: str = ""  # the command line or URL for display, as written (variables unexpanded)
    fingerprint: str = ""  # of the entry as written: what trusting the project records
    # "trustReadOnlyHint": true in one of the user's own files: the tools this server marks
    # readOnlyHint run without asking, like MewCode's read-only tools. Never from a project.
    trust_read_only_hint: bool = False

    def key(self) -> str:
        """What identifies this server's code and connection: a change makes a new key."""
        fields = msgspec.json.encode(
            [
                self.name,
                self.transport,
                self.command,
                self.args,
                self.env,
                self.cwd,
                self.url,
                self.headers,
            ]
        )
        return hashlib.sha256(fields).hexdigest()[:16]


class McpConfig(msgspec.Struct):
    """Every configured server, the ones waiting for trust, and what could not be read."""

    servers: list[McpServerSpec] = []  # may start
    untrusted: list[McpServerSpec] = []  # a project's servers before the project is trusted
    changed: list[str] = []  # of those, in a trusted project: new or changed since trusted
    problems: list[str] = []  # one line each: file, server name, reason


class McpToolInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """A tool as the server lists it (also what the tool-list cache stores)."""

    name: str  # the server's own name for it
    description: str = ""
    input_schema: dict[str, Any] = {}
    read_only: bool = False  # annotations.readOnlyHint
    title: str = ""


class McpServerStatus(msgspec.Struct, frozen=True, omit_defaults=True):
    """What `/mcp`, `mewcode mcp list`, the status bar and the init line show for a server."""

    name: str
    transport: TransportKind
    state: ServerState
    source: str
    tools: int = 0
    resources: bool = False  # offers resources (list/read virtual tools)
    prompts: bool = False  # offers prompts (get_prompt virtual tool)
    error: str = ""  # the last error, one line
    restarts: int = 0  # automatic restarts this session
    target: str = ""  # the command line or URL, for display (no header values, no env)
