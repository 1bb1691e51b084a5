"""The one table of built-in tools: name -> "module:Class", in the order offered to the model.

A new tool is its own file plus one line here. Everything else is derived:
the names rules may use (``config/rule_syntax.py`` reads ``BUILTIN_TOOL_NAMES``
before the first frame, so nothing here imports a tool module at import time),
the permission families and path fields (``permissions/``), the checker's
profiles and the tool set a runtime starts with. The order is stable for
prompt caching.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent_core.tools.base import Tool

BUILTIN_TOOLS: dict[str, str] = {
    "Read": "agent_core.tools.read:ReadTool",
    "Glob": "agent_core.tools.glob:GlobTool",
    "Grep": "agent_core.tools.grep:GrepTool",
    "LS": "agent_core.tools.ls:LSTool",
    "Write": "agent_core.tools.write:WriteTool",
    "Edit": "agent_core.tools.edit:EditTool",
    "MultiEdit": "agent_core.tools.multiedit:MultiEditTool",
    "Bash": "agent_core.tools.bash:BashTool",
    "BashOutput": "agent_core.tools.shell_tools:BashOutputTool",
    "KillShell": "agent_core.tools.shell_tools:KillShellTool",
    "TodoWrite": "agent_core.tools.todo:TodoWriteTool",
    "WebFetch": "agent_core.tools.webfetch:WebFetchTool",
    "ExitPlanMode": "agent_core.tools.exit_plan:ExitPlanModeTool",
}

BUILTIN_TOOL_NAMES: tuple[str, ...] = tuple(BUILTIN_TOOLS)


@functools.cache
def builtin_tool_class(name: str) -> type[Tool]:
    """The class of a built-in tool, imported on first use; KeyError for any other name."""
    module, _, attr = BUILTIN_TOOLS[name].partition(":")
    cls: type[Tool] = getattr(importlib.import_module(module), attr)
    return cls


def builtin_tools() -> list[Tool]:
    """A fresh instance of every built-in tool, in table order."""
    return [builtin_tool_class(name)() for name in BUILTIN_TOOLS]


@functools.cache
def builtin_family(kind: str) -> frozenset[str]:
    """Names of the built-in tools whose ``permission_kind`` is ``kind`` ("read", "edit"...)."""
    return frozenset(n for n in BUILTIN_TOOLS if builtin_tool_class(n).permission_kind == kind)


def builtin_rule_field(name: str) -> str | None:
    """The input field a built-in tool's rules match (its ``rule_field``); None for other tools."""
    if name not in BUILTIN_TOOLS:
        return None
    return builtin_tool_class(name).rule_field
