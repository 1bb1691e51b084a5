"""The tools a server listed at its last successful start, kept for the next run.

One file per server and configuration key (``cache/mcp/<name>-<key>.json``):
a changed command, URL or environment makes a new key, so tools listed by a
different server are never offered under its name. With a cache, a session
offers the server's tools at once and connects on first use.

What a server lists is redacted before it is kept (docs/security.md#secrets-at-rest): a description that
quotes a token keeps ``[REDACTED]`` in its place until the server is next listed.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import msgspec

from agent_core.fsutil import atomic_write_bytes
from agent_core.mcp.model import McpServerSpec, McpToolInfo
from agent_core.session.redact import Redactor

log = logging.getLogger("mewcode.mcp")


class CachedServer(msgspec.Struct, frozen=True):
    """What a server offered when it last connected."""

    tools: list[McpToolInfo] = []
    resources: bool = False
    prompts: bool = False


def cache_dir(home: Path) -> Path:
    return home / "cache" / "mcp"


def cache_path(home: Path, spec: McpServerSpec) -> Path:
    return cache_dir(home) / f"{spec.name}-{spec.key()}.json"


def load_cached(home: Path, spec: McpServerSpec) -> CachedServer | None:
    """The cached listing for this exact spec; None when absent or unreadable."""
    path = cache_path(home, spec)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.debug("MCP tool cache %s not read: %s", path, exc)
        return None
    try:
        return msgspec.json.decode(data, type=CachedServer)
    except msgspec.DecodeError as exc:
        log.debug("MCP tool cache %s ignored (corrupt): %s", path, exc)
        return None


def save_cached(home: Path, spec: McpServerSpec, entry: CachedServer) -> None:
    """Write the listing atomically and drop this server's caches for older keys."""
    path = cache_path(home, spec)
    try:
        atomic_write_bytes(path, msgspec.json.encode(at_rest(entry, spec)), private=True)
        for old in path.parent.glob(f"{spec.name}-*.json"):
            if old != path and old.name[len(spec.name) + 1 : -len(".json")].isalnum():
                old.unlink(missing_ok=True)
    except OSError as exc:
        log.debug("MCP tool cache %s not written: %s", path, exc)


def at_rest(entry: CachedServer, spec: McpServerSpec) -> CachedServer:
    """The listing as it is kept: secrets out of descriptions, titles and schemas (not names)."""
    redactor = Redactor({**os.environ, **spec.env})
    tools = [
        msgspec.structs.replace(
            tool,
            description=redactor.text(tool.description),
            title=redactor.text(tool.title),
            input_schema=redactor.value(tool.input_schema),
        )
        for tool in entry.tools
    ]
    return msgspec.structs.replace(entry, tools=tools)
