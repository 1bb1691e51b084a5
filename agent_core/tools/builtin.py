"""The built-in tool classes, imported on first use from the table in ``agent_core/tool_table.py``.

Everything derived from what the tools declare starts here: the tool set a
runtime starts with, the permission families, each tool's rule field.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from agent_core.tool_table import BUILTIN_TOOL_NAMES as BUILTIN_TOOL_NAMES
from agent_core.tool_table import BUILTIN_TOOLS

if TYPE_CHECKING:
    from agent_core.tools.base import Tool


@functools.cache
def builtin_tool_class(name: str) -> type[Tool]:
    """The class of a built-in tool, imported on first use; KeyError for any other name."""
    import importlib  # here: the table itself is read before the first frame

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
