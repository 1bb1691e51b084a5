"""``mewcode permissions check TOOL 'JSON' [--mode M]``: a dry run of the automatic layers."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings
from agent_core.errors import MewCodeError
from agent_core.mcp.names import parse as parse_mcp_name
from agent_core.modes import Mode, as_mode
from agent_core.permissions.engine import PermissionPolicy, PermissionRequest, decide
from agent_core.tool_table import BUILTIN_TOOLS
from agent_core.tools.builtin import builtin_tool_class

USAGE = "usage: mewcode permissions check TOOL 'JSON INPUT' [--mode MODE]"


def tool_profile(tool: str, read_only_tools: Iterable[str] = ()) -> tuple[str, bool]:
    """(kind, read_only) of a built-in or MCP tool; raises MewCodeError for an unknown tool."""
    if tool in BUILTIN_TOOLS:
        cls = builtin_tool_class(tool)
        return cls.permission_kind, cls.read_only
    if parse_mcp_name(tool) is not None:
        return "other", tool in set(read_only_tools)
    raise MewCodeError(
        f"unknown tool: {tool} (built-ins: {', '.join(BUILTIN_TOOLS)}, or mcp__server__tool)"
    )


def policy_from_settings(
    paths: MewcodePaths,
    settings: Settings,
    mode: Mode | None = None,
    home: Path | None = None,
    extra_rules: Iterable[RuleEntry] = (),
    cwd: Path | None = None,
) -> PermissionPolicy:
    """The policy for a project: settings rules plus session/CLI rules, and the mode."""
    chosen = mode or settings.default_mode
    return PermissionPolicy(
        project_root=paths.project,
        additional_dirs=[Path(d) for d in settings.additional_directories],
        rules=[*settings.rules, *extra_rules],
        mode=chosen,
        home=home if home is not None else Path.home(),
        network=settings.sandbox_network,
        cwd=cwd,
    )


def check_json(
    tool: str,
    input_json: str,
    mode: Mode | None,
    paths: MewcodePaths,
    settings: Settings,
    read_only_tools: Iterable[str] = (),
    home: Path | None = None,
    cwd: Path | None = None,
) -> dict[str, Any]:
    """Decide one would-be call; returns {"decision","layer","reason","rule"}. Runs nothing."""
    try:
        data = json.loads(input_json)
    except json.JSONDecodeError as exc:
        raise MewCodeError(
            f"invalid JSON input: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise MewCodeError('invalid JSON input: expected an object such as {"command": "ls"}')
    kind, read_only = tool_profile(tool, read_only_tools)
    policy = policy_from_settings(paths, settings, mode, home, cwd=cwd)
    # A dry run knows no server's configuration: an MCP tool's readOnlyHint is only a claim.
    claimed = parse_mcp_name(tool) is not None
    verdict = decide(PermissionRequest(tool, data, read_only, kind, not claimed), policy)
    return {
        "decision": verdict.decision,
        "layer": verdict.layer,
        "reason": verdict.reason,
        "rule": verdict.rule,
    }


def run_check(
    argv: list[str],
    paths: MewcodePaths,
    settings: Settings,
    read_only_tools: Iterable[str] = (),
    home: Path | None = None,
    cwd: Path | None = None,
) -> tuple[int, str]:
    """CLI entry: (0, verdict JSON) or (2, one-line error for stderr)."""
    positional: list[str] = []
    mode_text: str | None = None
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--mode":
            if not args:
                return 2, f"error: --mode needs a value\n{USAGE}"
            mode_text = args.pop(0)
        elif arg.startswith("--mode="):
            mode_text = arg.split("=", 1)[1]
        else:
            positional.append(arg)
    if len(positional) != 2:
        return 2, f"error: expected TOOL and JSON INPUT\n{USAGE}"
    try:
        mode = None if mode_text is None else as_mode(mode_text, "--mode")
        result = check_json(
            positional[0], positional[1], mode, paths, settings, read_only_tools, home, cwd
        )
    except MewCodeError as exc:
        return 2, f"error: {exc}"
    return 0, json.dumps(result)
