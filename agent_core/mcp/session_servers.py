"""The MCP servers a session gets: its configuration read, a hub built (nothing started)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

RETRUST_HINT = "trust them in the dialog when mewcode opens, or run with --trust-project"

if TYPE_CHECKING:
    from agent_core.config.paths import MewcodePaths
    from agent_core.config.settings import Settings
    from agent_core.mcp.cli_config import CliMcpConfig
    from agent_core.mcp.model import McpConfig
    from agent_core.mcp.servers_api import McpServers


def session_mcp_config(
    paths: MewcodePaths,
    settings: Settings,
    env: Mapping[str, str],
    home: Path | None = None,
    cli: Sequence[CliMcpConfig] = (),
    strict: bool = False,
) -> McpConfig:
    """The servers configured for this project; a project's file may not read API keys.
    ``cli``: the ``--mcp-config`` servers; ``strict``: only those."""
    from agent_core.llm.catalog import PROVIDERS
    from agent_core.mcp.config import load_mcp_config

    keys = {e.key_env for e in PROVIDERS.values() if e.key_env} | {settings.api_key_env or ""}
    return load_mcp_config(
        paths,
        trusted=settings.project_trusted,
        home=home if home is not None else Path.home(),
        env=env,
        withheld=keys - {""},
        approved=settings.trusted_programs,
        cli=cli,
        strict=strict,
    )


def open_mcp_servers(
    paths: MewcodePaths,
    settings: Settings,
    env: Mapping[str, str],
    home: Path | None = None,
    cli: Sequence[CliMcpConfig] = (),
    strict: bool = False,
) -> tuple[McpServers | None, list[str]]:
    """The hub for the configured servers (None when there are none) and the config's
    problems, one line each. Project servers start only in a trusted project."""
    config = session_mcp_config(paths, settings, env, home, cli, strict)
    problems = list(config.problems)
    if config.changed:
        problems.append(
            f"{paths.project / '.mcp.json'}: MCP servers not started: new or changed since you "
            f"trusted this folder: {', '.join(config.changed)} ({RETRUST_HINT})"
        )
    elif config.untrusted:
        names = ", ".join(s.name for s in config.untrusted)
        problems.append(
            f"{config.untrusted[0].source}: MCP servers not started until you trust this "
            f"project: {names}"
        )
    if not config.servers and not config.untrusted:
        return None, problems
    from agent_core.mcp.hub import McpHub

    limits = settings.limits
    hub = McpHub(
        config.servers,
        untrusted=config.untrusted,
        home=paths.home,
        startup_timeout_s=limits.mcp_startup_timeout_s,
        tool_timeout_s=limits.mcp_tool_timeout_s,
        max_restarts=limits.mcp_restarts,
    )
    return hub, problems
