"""`mewcode mcp list`: start every configured MCP server once and say how each one fares.

Prints a plain table (name, transport, scope, status, tools, file, command or URL)
with each server's last error under its row; configuration problems go to stderr
first as ``mewcode: warning:`` lines. Exit 1 when a server that may start failed or
the configuration has a problem, else 0. Every server is stopped before it returns.
Names, commands, paths and errors come from configuration files and the servers
themselves: their control characters are printed escaped (agent_core.terminal_text).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent_core.config.settings import Settings
    from agent_core.mcp.model import McpConfig, McpServerSpec, McpServerStatus

USAGE = "usage: mewcode mcp list [--cwd DIR] [--trust-project]"
NOTHING_CONFIGURED = "No MCP servers configured (~/.mewcode/mcp.json, .mcp.json)"
UNTRUSTED_NOTE = "needs trust (run mewcode in this project and trust it, or --trust-project)"
HEADINGS = ("NAME", "TRANSPORT", "SCOPE", "STATUS", "TOOLS", "FILE", "TARGET")
STATUS_WORDS = {"needs-trust": "needs trust"}


def mcp_command(argv: list[str]) -> int:
    """`mewcode mcp list [--cwd DIR] [--trust-project]`; any other subcommand: usage, exit 2."""
    from mewcode_tui.cli import _setup, _subcommand_options, fail, warn

    if not argv or argv[0] != "list":
        return fail(USAGE, 2)
    cwd, trust, rest = _subcommand_options(argv[1:])
    if rest:
        return fail(f"unexpected argument {rest[0]!r}\n{USAGE}", 2)
    from agent_core.mcp.session_servers import session_mcp_config

    _, paths, settings = _setup(argparse.Namespace(cwd=cwd, trust_project=trust))
    config = session_mcp_config(paths, settings, os.environ)
    for problem in [*settings.problems, *config.problems]:
        warn(problem)
    if not config.servers and not config.untrusted:
        sys.stdout.write(NOTHING_CONFIGURED + "\n")
        return 1 if config.problems else 0
    statuses = asyncio.run(connect_all(config, paths.home, settings))
    specs = {s.name: s for s in [*config.servers, *config.untrusted]}
    sys.stdout.write(server_table(statuses, specs))
    failed = any(s.state == "failed" for s in statuses)
    return 1 if failed or config.problems else 0


async def connect_all(config: McpConfig, home: Path, settings: Settings) -> list[McpServerStatus]:
    """Start every server that may start, wait until each is connected or has failed
    (each bounded by the start-up timeout), and stop them all again."""
    from agent_core.mcp.hub import McpHub

    limits = settings.limits
    hub = McpHub(
        config.servers,
        untrusted=config.untrusted,
        home=home,
        startup_timeout_s=limits.mcp_startup_timeout_s,
        tool_timeout_s=limits.mcp_tool_timeout_s,
        max_restarts=limits.mcp_restarts,
    )
    changed = asyncio.Event()
    hub.watch(changed.set)
    try:
        hub.start()
        # The hub bounds each start; the extra margin only guards against a hub that never
        # reports, so the command cannot hang.
        async with asyncio.timeout(limits.mcp_startup_timeout_s + 5):
            while any(s.state in ("pending", "connecting") for s in hub.statuses()):
                changed.clear()
                await changed.wait()
        return hub.statuses()
    except TimeoutError:
        return hub.statuses()
    finally:
        await hub.aclose()


def tools_cell(status: McpServerStatus) -> str:
    """'3', with '+resources' and '+prompts' when the server offers them; '-' if unknown."""
    if status.state != "connected":
        return "-"
    cell = str(status.tools)
    if status.resources:
        cell += " +resources"
    if status.prompts:
        cell += " +prompts"
    return cell


def short_file(path: str) -> str:
    """``path`` with the home folder written as ~."""
    home = str(Path.home())
    return "~" + path[len(home) :] if path.startswith(home + os.sep) else path


def server_table(statuses: Sequence[McpServerStatus], specs: dict[str, McpServerSpec]) -> str:
    """The table: one row a server, its error or what it waits for indented under it."""
    from agent_core.mcp.config import target_text
    from agent_core.terminal_text import visible_text

    rows: list[tuple[tuple[str, ...], str]] = []
    for status in statuses:
        spec = specs.get(status.name)
        cells: tuple[str, ...] = (
            status.name,
            status.transport,
            spec.scope if spec else "",
            STATUS_WORDS.get(status.state, status.state),
            tools_cell(status),
            short_file(status.source),
            status.target or (target_text(spec) if spec else ""),
        )
        if status.state == "needs-trust":
            note = UNTRUSTED_NOTE
        else:
            note = f"error: {status.error}" if status.error else ""
        rows.append((tuple(visible_text(cell) for cell in cells), visible_text(note)))
    widths = [max(len(c[i]) for c in [HEADINGS, *(r for r, _ in rows)]) for i in range(7)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out = [line(HEADINGS)]
    for shown, note in rows:
        out.append(line(shown))
        if note:
            out.append("    " + note)
    return "\n".join(out) + "\n"
