"""``--mcp-config FILE|JSON``: servers for one run, in Claude Code's ``{"mcpServers": {...}}``.

The command line is the user's own intent, so these servers count as the user's
(they start in an untrusted project, as ``~/.mewcode/mcp.json``'s do). A value is
checked whole before anything runs: any problem in it is an error, not a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from agent_core.errors import ConfigError

FLAG = "--mcp-config"


class CliMcpConfig(msgspec.Struct, frozen=True):
    """One ``--mcp-config`` value, read: where it came from and its servers as written."""

    source: str  # the file, or "--mcp-config" for JSON text
    base: str  # the folder a relative ``cwd`` is relative to
    servers: dict[str, Any]


def read_cli_mcp_config(value: str, cwd: Path, home: Path, env: Mapping[str, str]) -> CliMcpConfig:
    """A file path or JSON object text; ConfigError (one line) when it cannot be used whole."""
    from agent_core.mcp.config import read_servers, servers_object

    if value.lstrip().startswith("{"):
        source, base, data = FLAG, cwd, value.encode("utf-8", "surrogateescape")
    else:
        file = (cwd / Path(value).expanduser()).resolve()
        source, base = str(file), file.parent
        try:
            data = file.read_bytes()
        except FileNotFoundError:
            raise ConfigError(f"{FLAG} {value}: no such file") from None
        except OSError as exc:
            raise ConfigError(f"{FLAG} {value}: cannot read: {exc.strerror or exc}") from None
    problems: list[str] = []
    servers = servers_object(data, source, problems)
    if not problems and not servers:
        problems.append(f"{source}: no servers in its mcpServers object")
    if not problems:
        problems = read_servers(servers, source, base, home, env).problems
    if problems:
        raise ConfigError(f"{FLAG}: {problems[0]}" if source != FLAG else problems[0])
    return CliMcpConfig(source, str(base), servers)
